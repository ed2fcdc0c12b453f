// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// The start line and header fields of an HTTP/1.1 message embedded in a body
/// (`application/http`, RFC 9112), parsed strictly: this is where a batch response could smuggle
/// a header or split a message, so anything the grammar does not allow is an error.
///
/// Accepted: empty lines before the start line (RFC 9112 §2.2), CRLF or bare LF line ends.
/// Rejected with the byte offset: a bare CR, a malformed status or request line, an HTTP major
/// version other than 1, a status outside 100–599, control characters, a header name that is
/// not a token or is followed by white space before the colon, obsolete line folding, a header
/// section larger than ``Limits/maxPartHeaderBytes``, and a message that ends inside its head.
struct EmbeddedHTTPHead {
    /// The start line.
    enum StartLine: Equatable {
        case response(version: String, status: Int, reason: String)
        case request(method: String, target: String, version: String)
    }

    let startLine: StartLine
    /// The header fields in order, names with the case they arrived with.
    let headers: [MultipartPart.Header]
    /// The offset of the first body byte.
    let bodyOffset: Int

    /// Parses the head at the start of `bytes`.
    init(parsing bytes: [UInt8], limits: Limits) throws(SatchelError) {
        var lines = LineReader(bytes: bytes, limit: limits.maxPartHeaderBytes)
        var first = try lines.next()
        while let line = first, line.isEmpty { first = try lines.next() }
        guard let line = first else {
            let blank = bytes.allSatisfy { $0 == 0x0D || $0 == 0x0A }
            throw SatchelError(
                .truncatedInput,
                blank ? "the embedded HTTP message is empty" : "the embedded HTTP message ends inside its start line",
                offset: bytes.count)
        }
        startLine = try Self.startLine(line, bytes: bytes)
        var headers: [MultipartPart.Header] = []
        while true {
            guard let line = try lines.next() else {
                throw SatchelError(
                    .truncatedInput, "the embedded HTTP message ends inside its header section", offset: bytes.count)
            }
            if line.isEmpty { break }
            headers.append(try Self.header(line, bytes: bytes))
        }
        self.headers = headers
        bodyOffset = lines.position
    }

    /// The value of the first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first(named: name)?.value
    }

    // MARK: - Lines

    private static func startLine(_ line: Range<Int>, bytes: [UInt8]) throws(SatchelError) -> StartLine {
        let text = bytes[line]
        func fail(_ why: String) -> SatchelError {
            SatchelError(.syntaxError, "the embedded HTTP start line is malformed: \(why)", offset: line.lowerBound)
        }
        if let control = text.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw SatchelError(
                .syntaxError, "the embedded HTTP start line contains a control character", offset: control)
        }
        let fields = text.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        if text.starts(with: Array("HTTP/".utf8)) {
            guard fields.count >= 2 else { throw fail("expected \"HTTP/1.1 status reason\"") }
            let version = try Self.version(fields[0], fail)
            let code = fields[1]
            guard code.count == 3, code.allSatisfy({ (0x30...0x39).contains($0) }),
                let status = Int(String(decoding: code, as: UTF8.self)), (100...599).contains(status)
            else { throw fail("the status code is not three digits from 100 to 599") }
            let reason = fields.count == 3 ? String(decoding: fields[2], as: UTF8.self) : ""
            return .response(version: version, status: status, reason: reason)
        }
        guard fields.count == 3, !fields[0].isEmpty, fields[0].allSatisfy(Self.isTokenByte) else {
            throw fail("expected a status line or \"METHOD target HTTP/1.1\"")
        }
        guard !fields[1].isEmpty, !fields[1].contains(UInt8(ascii: " ")) else {
            throw fail("the request target is empty or has spaces")
        }
        let version = try Self.version(fields[2], fail)
        return .request(
            method: String(decoding: fields[0], as: UTF8.self), target: String(decoding: fields[1], as: UTF8.self),
            version: version)
    }

    private static func version(
        _ text: ArraySlice<UInt8>, _ fail: (String) -> SatchelError
    ) throws(SatchelError) -> String {
        let version = String(decoding: text, as: UTF8.self)
        let digits = Array(text.dropFirst(5))
        guard text.starts(with: Array("HTTP/".utf8)), digits.count == 3, digits[1] == UInt8(ascii: "."),
            digits[0] == UInt8(ascii: "1"), (0x30...0x39).contains(digits[2])
        else { throw fail("the version \"\(version)\" is not HTTP/1.x") }
        return version
    }

    private static func header(_ line: Range<Int>, bytes: [UInt8]) throws(SatchelError) -> MultipartPart.Header {
        let text = bytes[line]
        if text.first == 0x20 || text.first == 0x09 {
            throw SatchelError(
                .syntaxError, "obsolete line folding in an embedded HTTP header", offset: line.lowerBound)
        }
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else {
            throw SatchelError(.syntaxError, "an embedded HTTP header line has no colon", offset: line.lowerBound)
        }
        let name = text[..<colon]
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
            throw SatchelError(
                .syntaxError, "an embedded HTTP header name is empty, or not a token (white space before the colon?)",
                offset: line.lowerBound)
        }
        let value = text[(colon + 1)...]
        if let control = value.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw SatchelError(
                .syntaxError, "an embedded HTTP header value contains a control character", offset: control)
        }
        let trimmed = value.drop { $0 == 0x20 || $0 == 0x09 }
        let end = trimmed.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { $0 + 1 } ?? trimmed.startIndex
        let valueText =
            String(validating: trimmed[..<end], as: UTF8.self)
            ?? String(String.UnicodeScalarView(trimmed[..<end].map { Unicode.Scalar($0) }))
        return MultipartPart.Header(name: String(decoding: name, as: UTF8.self), value: valueText)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        MultipartReader.isTokenCharacter(byte)
    }

    /// Reads lines ended by CRLF or LF, refusing a bare CR and a head past the limit.
    private struct LineReader {
        let bytes: [UInt8]
        let limit: Int
        var position = 0

        /// The next line without its end, or `nil` at the end of the input.
        mutating func next() throws(SatchelError) -> Range<Int>? {
            guard position < bytes.count else { return nil }
            let start = position
            var index = position
            while index < bytes.count {
                if index >= limit {
                    throw SatchelError.limitExceeded(
                        "maxPartHeaderBytes", limit, "the head of an embedded HTTP message", offset: index)
                }
                switch bytes[index] {
                case 0x0A:
                    position = index + 1
                    return start..<index
                case 0x0D:
                    guard index + 1 < bytes.count, bytes[index + 1] == 0x0A else {
                        throw SatchelError(
                            .syntaxError, "a bare CR in the head of an embedded HTTP message", offset: index)
                    }
                    position = index + 2
                    return start..<index
                default:
                    index += 1
                }
            }
            // The input ends without a line end: the head is unterminated.
            return nil
        }
    }
}
