// SPDX-License-Identifier: Apache-2.0
import CSatchelJSONC
import SerializerRegistry
import Synchronization

/// Owns a json-c tokener and the tree it builds; frees both when released.
///
/// `@unchecked Sendable`: a parser is used by one reader at a time; it only crosses threads when
/// it is moved into ``kept`` and out again, under that mutex, with no reference left behind.
final class JSONCParser: @unchecked Sendable {
    private let tokener: UnsafeMutablePointer<json_tokener>
    private(set) var root: OpaquePointer?
    private(set) var isComplete = false
    private var fed = 0

    /// The depth of the tokener's parse stack.
    let depth: Int

    /// - Throws: ``SatchelError/Code/internal`` when json-c cannot allocate a tokener.
    private init(depth: Int) throws(SatchelError) {
        guard let tokener = json_tokener_new_ex(Int32(depth)) else {
            throw SatchelError(.internal, "json-c could not allocate a tokener of depth \(depth)")
        }
        self.tokener = tokener
        self.depth = depth
        json_tokener_set_flags(tokener, Int32(JSON_TOKENER_STRICT))
    }

    deinit {
        if let root { json_object_put(root) }
        json_tokener_free(tokener)
    }

    /// Frees the tree and readies the tokener for another text when it completed its last one.
    /// - Returns: `false` (nothing done) for a parser cut off mid-text: `json_tokener_reset` keeps
    ///   some of the tokener's state (a pending high surrogate), so such a parser must not read
    ///   another text.
    func resetIfComplete() -> Bool {
        guard isComplete else { return false }
        reset()
        return true
    }

    /// Frees the tree and readies the tokener for another text (a tokener is costly to make:
    /// its stack of `depth` levels is allocated and zeroed).
    private func reset() {
        if let root { json_object_put(root) }
        root = nil
        isComplete = false
        fed = 0
        json_tokener_reset(tokener)
    }

    /// Feeds validated text. Bytes after the top-level value (whitespace) are ignored.
    func feed(_ bytes: UnsafeBufferPointer<UInt8>) throws(SatchelError) {
        guard !isComplete, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count && !isComplete {
            let length = min(bytes.count - offset, 1 << 30)
            let pointer = UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self)
            try step(json_tokener_parse_ex(tokener, pointer, Int32(length)))
            offset += length
            fed += length
        }
    }

    /// Signals the end of the text (json-c completes a top-level number only when it sees one).
    func finish() throws(SatchelError) {
        guard !isComplete else { return }
        try step(json_tokener_parse_ex(tokener, "", 1))
        guard isComplete else {
            throw SatchelError(.truncatedInput, "json-c did not complete the value", offset: fed)
        }
    }

    private func step(_ object: OpaquePointer?) throws(SatchelError) {
        let status = json_tokener_get_error(tokener)
        if status == json_tokener_success {
            root = object
            isComplete = true
        } else if status != json_tokener_continue {
            // The lexer validated the text first, so this is a disagreement with json-c.
            let message = String(cString: json_tokener_error_desc(status))
            throw SatchelError(
                .syntaxError, "json-c rejected the text: \(message)",
                offset: fed + json_tokener_get_parse_end(tokener))
        }
    }
}

// MARK: Kept parsers

extension JSONCParser {
    /// The most parsers kept idle between reads: about one per thread reading JSON at once.
    static let maximumKept = 4
    /// The longest text whose parser is kept (256 KiB: the small documents an API returns):
    /// json-c's token buffer grows to the longest string or number it has read, and a reset does
    /// not shrink it, so the kept parsers hold at most about 1 MiB.
    static let maximumKeptText = 1 << 18

    /// Idle parsers, trees freed and tokeners reset.
    private static let kept = Mutex<[JSONCParser]>([])

    /// A parser whose tokener has a stack of `depth` levels: a kept one when there is one, else
    /// a new one.
    ///
    /// Making a tokener allocates and zeroes its stack (16 KiB at the default depth) and, as a
    /// large allocation, makes glibc consolidate the chunks the last tree freed: about a tenth of
    /// reading a 1 KB document.
    /// - Throws: ``SatchelError/Code/internal`` when json-c cannot allocate a tokener.
    static func make(depth: Int) throws(SatchelError) -> JSONCParser {
        let reused = kept.withLock { parsers -> JSONCParser? in
            guard let index = parsers.lastIndex(where: { $0.depth == depth }) else { return nil }
            return parsers.remove(at: index)
        }
        if let reused { return reused }
        return try JSONCParser(depth: depth)
    }

    /// Frees `parser`'s tree and keeps the parser for a later ``make(depth:)``, unless it did
    /// not complete its text (``resetIfComplete()``) or enough are kept already.
    static func keep(_ parser: JSONCParser) {
        guard parser.resetIfComplete() else { return }
        kept.withLock { parsers in
            if parsers.count < maximumKept { parsers.append(parser) }
        }
    }
}
