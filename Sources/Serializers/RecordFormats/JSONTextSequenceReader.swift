// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a JSON text sequence (`application/json-seq`, RFC 7464) as it arrives: each JSON text
/// begins with the record separator RS (0x1E) and ends with LF. A text is handed over as soon as
/// an LF follows a complete JSON value (its brackets closed, outside any string) — so a record
/// does not wait for the next one — or else at the next RS or the end of the body.
///
/// The reading of the RFC's parser rules chosen here: consecutive RS bytes (and texts of only
/// whitespace) are skipped (§2.1); bytes other than whitespace before the first RS are an error;
/// bytes other than whitespace after a complete text and before the next RS are an error;
/// a text that is not valid JSON is an error naming it (`text 3`) rather than skipped (§2.3
/// lets a parser do either; records before it have been handed over); a text that is a number,
/// `true`, `false` or `null` and is not followed by whitespace may have been truncated (§2.4)
/// and is an error (``SatchelError/Code/truncatedInput``).
public final class JSONTextSequenceReader: RecordReader {
    private static let recordSeparator: UInt8 = 0x1E
    /// Reads each text, reusing its json-c tokener from text to text.
    private let documents: JSONIncrementalReader
    private let limits: Limits
    /// The bytes of the text being collected (after its RS).
    private var text: [UInt8] = []
    private var textStart = 0
    private var consumed = 0
    private var seenSeparator = false
    /// Texts seen so far (skipped empty ones excluded).
    private var textCount = 0
    /// The shape of the current text so far: open brackets, inside a string (after a
    /// backslash), whether a value began, whether it was handed over at an LF.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var valueStarted = false
    private var delivered = false
    /// Records handed over so far.
    public private(set) var recordCount = 0

    /// Creates a reader; each text is read with `options` and `limits`, texts are bounded by
    /// ``Limits/maxRecordBytes`` and their number by ``Limits/maxRecords``.
    public init(options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default) {
        documents = JSONIncrementalReader(options: options, limits: limits)
        self.limits = limits
    }

    public func feed(
        _ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        guard let base = bytes.baseAddress else { return }
        var index = 0
        while index < bytes.count {
            let found = memchr(base + index, Int32(Self.recordSeparator), bytes.count - index)
            let end = found.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
            try collect(UnsafeBufferPointer(rebasing: bytes[index..<end]), at: consumed + index, deliver)
            guard end < bytes.count else { break }
            try complete(deliver)
            startText(at: consumed + end + 1)
            index = end + 1
        }
        consumed += bytes.count
    }

    public func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        try complete(deliver)
        text.removeAll()
    }

    private func startText(at offset: Int) {
        seenSeparator = true
        text.removeAll(keepingCapacity: true)
        textStart = offset
        (depth, inString, escaped, valueStarted, delivered) = (0, false, false, false, false)
    }

    /// Adds bytes to the current text, handing it over at an LF that follows a complete value
    /// (or checks the bytes before the first RS, or after a handed-over text).
    private func collect(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ deliver: (Value) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        guard seenSeparator, !delivered else {
            if let stray = bytes.firstIndex(where: { !Self.isWhitespace($0) }) {
                throw SatchelError(
                    .syntaxError,
                    seenSeparator
                        ? "text \(textCount): more than one JSON text before the next RS"
                        : "a JSON text sequence begins each text with RS (0x1E); found other bytes first",
                    offset: offset + stray)
            }
            return
        }
        guard text.count + bytes.count <= limits.maxRecordBytes else {
            throw SatchelError.limitExceeded(
                "maxRecordBytes", limits.maxRecordBytes,
                "text \(textCount + 1) of more than \(limits.maxRecordBytes) bytes",
                offset: textStart + limits.maxRecordBytes)
        }
        for (position, byte) in bytes.enumerated() {
            if delivered {
                guard Self.isWhitespace(byte) else {
                    throw SatchelError(
                        .syntaxError, "text \(textCount): more than one JSON text before the next RS",
                        offset: offset + position)
                }
                continue
            }
            text.append(byte)
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; valueStarted = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; valueStarted = true
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case 0x0A where depth <= 0 && valueStarted:
                try complete(deliver)
                delivered = true
            case 0x20, 0x09, 0x0D, 0x0A: break
            default: valueStarted = true
            }
        }
    }

    /// Reads the text collected since the last RS, unless it is empty or was handed over.
    private func complete(_ deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        guard seenSeparator, !delivered, let last = text.lastIndex(where: { !Self.isWhitespace($0) }) else { return }
        textCount += 1
        guard recordCount < limits.maxRecords else {
            throw SatchelError.limitExceeded("maxRecords", limits.maxRecords, "text \(textCount)", offset: textStart)
        }
        let first = text[last]
        let selfDelimiting = first == UInt8(ascii: "}") || first == UInt8(ascii: "]") || first == UInt8(ascii: "\"")
        if !selfDelimiting && last == text.count - 1 {
            throw SatchelError(
                .truncatedInput,
                "text \(textCount): a number or literal not followed by whitespace may be truncated (RFC 7464 §2.4)",
                offset: textStart + last + 1)
        }
        let value: Value
        do {
            value = try text.withUnsafeBufferPointer { (text) throws(SatchelError) in
                try documents.readDocument(UnsafeRawBufferPointer(text))
            }
        } catch {
            throw error.located(inRecord: "text \(textCount)", startingAt: textStart)
        }
        recordCount += 1
        try deliver(value)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
