// SPDX-License-Identifier: Apache-2.0
import CSatchelJSONC
import SerializerRegistry

/// Owns a json-c tokener and the tree it builds; frees both when released.
final class JSONCParser {
    private let tokener: UnsafeMutablePointer<json_tokener>
    private(set) var root: OpaquePointer?
    private(set) var isComplete = false
    private var fed = 0

    /// - Throws: ``SatchelError/Code/internal`` when json-c cannot allocate a tokener.
    init(depth: Int) throws(SatchelError) {
        guard let tokener = json_tokener_new_ex(Int32(depth)) else {
            throw SatchelError(.internal, "json-c could not allocate a tokener of depth \(depth)")
        }
        self.tokener = tokener
        json_tokener_set_flags(tokener, Int32(JSON_TOKENER_STRICT))
    }

    deinit {
        if let root { json_object_put(root) }
        json_tokener_free(tokener)
    }

    /// Frees the tree and readies the tokener for another text (a tokener is costly to make:
    /// its stack of `depth` levels is allocated and zeroed).
    func reset() {
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
