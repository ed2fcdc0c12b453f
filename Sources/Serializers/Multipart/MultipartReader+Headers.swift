// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The header section of the part being read, line by line.
struct HeaderSection {
    /// One header field as received; a folded field has its lines joined with one space.
    struct Field {
        var name: [UInt8]
        var value: [UInt8]
        /// The offset of the field's line.
        var offset: Int
        /// The offset of the value's first byte.
        var valueOffset: Int
        /// Where each folded continuation starts: its index in ``value`` and its offset.
        var folds: [(index: Int, offset: Int)] = []

        /// The offset of the byte at `index` in ``value``.
        func offset(ofValueIndex index: Int) -> Int {
            var result = valueOffset + index
            for fold in folds where fold.index <= index {
                result = fold.offset + (index - fold.index)
            }
            return result
        }
    }

    /// The offset of the section's first byte.
    let start: Int
    /// Bytes of the section so far, line endings included.
    var byteCount = 0
    /// The line being read, without its LF.
    var line: [UInt8] = []
    var fields: [Field] = []

    init(start: Int) {
        self.start = start
    }
}

/// A part whose headers were read, waiting for its body.
struct PartHead {
    var index: Int
    var offset: Int
    var bodyOffset: Int
    var headers: [MultipartReader.Part.Header]
    var disposition: ContentDisposition?
    var contentType: String?
}

extension MultipartReader {
    /// Reads header lines from `bytes[start..<end]` until the blank line that ends them.
    ///
    /// - Returns: The index after the bytes used: past the blank line, or `end`.
    func readHeaders(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) throws(SatchelError) -> Int {
        var index = start
        while index < end {
            let hit = memchr(bytes + index, 0x0A, end - index)
            let lineEnd = hit.map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - bytes } ?? end
            let taken = min(lineEnd + 1, end) - index
            if taken > limits.maxPartHeaderBytes - section.byteCount {
                throw SatchelError.limitExceeded(
                    "maxPartHeaderBytes", limits.maxPartHeaderBytes,
                    "the headers of \(partName), of more than \(limits.maxPartHeaderBytes) bytes,",
                    offset: section.start + limits.maxPartHeaderBytes)
            }
            section.byteCount += taken
            section.line.append(contentsOf: UnsafeBufferPointer(start: bytes + index, count: lineEnd - index))
            guard lineEnd < end else { return end }
            index = lineEnd + 1
            if try endLine(lineFeedOffset: offset(of: lineEnd)) {
                try beginBody(makeHead(bodyOffset: offset(of: index)))
                return index
            }
        }
        return end
    }

    /// Takes the line just read: a header field, the continuation of a folded one, or the blank
    /// line that ends the section (returns `true`).
    private func endLine(lineFeedOffset: Int) throws(SatchelError) -> Bool {
        var line = section.line
        section.line.removeAll(keepingCapacity: true)
        let lineStart = lineFeedOffset - line.count
        if line.last == 0x0D {
            line.removeLast()
        } else if !acceptsBareLineFeeds {
            throw SatchelError(
                .syntaxError, "a header line of \(partName) ends with a bare LF (the reader accepts CRLF only)",
                offset: lineFeedOffset)
        }
        if let carriageReturn = line.firstIndex(of: 0x0D) {
            throw SatchelError(
                .syntaxError, "a header line of \(partName) has a CR that does not end the line",
                offset: lineStart + carriageReturn)
        }
        if line.isEmpty { return true }
        if line[0] == 0x20 || line[0] == 0x09 {
            // obs-fold: the line continues the previous field.
            guard !section.fields.isEmpty else {
                throw SatchelError(
                    .syntaxError, "the headers of \(partName) start with a line that begins with whitespace",
                    offset: lineStart)
            }
            let continuation = Self.trimmed(line[...])
            try checkValue(continuation, lineStart: lineStart)
            if !continuation.isEmpty {
                let last = section.fields.count - 1
                section.fields[last].folds.append(
                    (index: section.fields[last].value.count + 1, offset: lineStart + continuation.startIndex))
                section.fields[last].value += [0x20] + continuation
            }
            return false
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw SatchelError(
                .syntaxError,
                "no blank line after the headers of \(partName): the line \(Self.excerpt(line)) is not a header field",
                offset: lineStart)
        }
        guard colon > 0, line[..<colon].allSatisfy(Self.isTokenCharacter) else {
            throw SatchelError(
                .syntaxError,
                "\(partName) has an invalid header name \(Self.excerpt(Array(line[..<colon]))) "
                    + "(a token with no whitespace before the colon)",
                offset: lineStart)
        }
        let value = Self.trimmed(line[(colon + 1)...])
        try checkValue(value, lineStart: lineStart)
        section.fields.append(
            HeaderSection.Field(
                name: Array(line[..<colon]), value: Array(value), offset: lineStart,
                valueOffset: lineStart + value.startIndex))
        return false
    }

    private func checkValue(_ value: ArraySlice<UInt8>, lineStart: Int) throws(SatchelError) {
        if let control = value.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw SatchelError(
                .syntaxError,
                "a header value of \(partName) contains the control character \(describe(value[control]))",
                offset: lineStart + control)
        }
    }

    /// The part's headers as strings, with Content-Disposition and Content-Type checked.
    private func makeHead(bodyOffset: Int) throws(SatchelError) -> PartHead {
        let fields = section.fields
        var head = PartHead(
            index: partIndex, offset: section.start, bodyOffset: bodyOffset,
            headers: fields.map {
                Part.Header(name: String(decoding: $0.name, as: UTF8.self), value: Self.text($0.value))
            })
        let dispositions = fields.indices.filter { Self.named(fields[$0].name, "content-disposition") }
        let contentTypes = fields.indices.filter { Self.named(fields[$0].name, "content-type") }
        if !options.lenient {
            for (indices, name) in [(dispositions, "Content-Disposition"), (contentTypes, "Content-Type")]
            where indices.count > 1 {
                throw SatchelError(
                    .syntaxError, "\(partName) has \(indices.count) \(name) headers", offset: fields[indices[1]].offset)
            }
        }
        if let first = contentTypes.first { head.contentType = head.headers[first].value }
        if let first = dispositions.first {
            let field = fields[first]
            do throws(SatchelError) {
                head.disposition = try ContentDisposition(parsing: head.headers[first].value, lenient: options.lenient)
            } catch {
                // Outside form-data a lenient parser can do without the header.
                if isFormData || !options.lenient {
                    throw SatchelError(
                        .syntaxError, "the Content-Disposition of \(partName) is malformed: \(error.message)",
                        offset: field.offset(
                            ofValueIndex: Self.byteOffset(ofUTF8Offset: error.offset ?? 0, inText: field.value)))
                }
            }
        }
        guard isFormData else { return head }
        guard let disposition = head.disposition, let first = dispositions.first else {
            throw SatchelError(
                .syntaxError, "\(partName) has no Content-Disposition header (multipart/form-data requires one)",
                offset: section.start)
        }
        if disposition.type != "form-data" && !options.lenient {
            throw SatchelError(
                .syntaxError,
                "the Content-Disposition of \(partName) is \"\(disposition.type)\", not \"form-data\"",
                offset: fields[first].valueOffset)
        }
        if disposition.name == nil {
            throw SatchelError(
                .syntaxError,
                "the Content-Disposition of \(partName) has no name parameter (multipart/form-data requires one)",
                offset: fields[first].valueOffset)
        }
        return head
    }

    // MARK: - Helpers

    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
        return slice
    }

    /// Whether a header name is `lowercase`, ignoring case.
    static func named(_ name: [UInt8], _ lowercase: String) -> Bool {
        name.count == lowercase.utf8.count
            && zip(name, lowercase.utf8).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }

    /// Header bytes as text: UTF-8 (what browsers send), else ISO-8859-1 byte for byte.
    static func text(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// The offset in `bytes` of the byte that `offset`, a UTF-8 offset in ``text(_:)`` of
    /// `bytes`, falls on: the same for UTF-8, shifted back for ISO-8859-1, where a byte from 0x80
    /// became two UTF-8 bytes.
    static func byteOffset(ofUTF8Offset offset: Int, inText bytes: [UInt8]) -> Int {
        guard String(validating: bytes, as: UTF8.self) == nil else { return offset }
        var utf8Offset = 0
        for (index, byte) in bytes.enumerated() {
            if utf8Offset >= offset { return index }
            utf8Offset += byte < 0x80 ? 1 : 2
        }
        return bytes.count
    }

    /// Up to 60 bytes of a line, quoted as JSON.
    static func excerpt(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(60), as: UTF8.self) + (line.count > 60 ? "…" : "")
        return Value.string(text).canonicalJSON()
    }
}
