// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Builds a response head from the header lines libcurl hands over one by one, skipping
/// interim (1xx) heads.
///
/// Field lines are split and trimmed on their bytes; only the name and the value become
/// strings (this runs for every header line of every response).
struct ResponseHeadParser {
    private var status: HTTPResponse.Status?
    private var fields = HTTPFields()
    /// The final head, once its blank line arrived.
    private(set) var head: HTTPResponse?
    /// The HTTP version of the status line, such as `"1.1"` or `"2"`.
    private(set) var version = ""

    /// Forgets a final head that may be followed by another response (a 401 libcurl answers
    /// with the credential), so the next status line starts a new head.
    mutating func expectAnotherResponse() {
        status = nil
        fields.removeAll(keepingCapacity: true)
        head = nil
    }

    /// Makes `head` the final one again after ``expectAnotherResponse()``: later lines are
    /// trailers.
    mutating func settle(on head: HTTPResponse) {
        self.head = head
    }

    /// Takes one header line (with or without its CRLF).
    /// - Returns: The final head when `line` completed it.
    /// - Throws: ``SatchelError/Code/networkFailure`` for a malformed status line, or a final head
    ///   whose Content-Length values disagree.
    /// - Complexity: O(*n*) in the length of the line.
    mutating func take(_ line: UnsafeRawBufferPointer) throws(SatchelError) -> HTTPResponse? {
        guard head == nil else { return nil }  // trailers
        let bytes = line.assumingMemoryBound(to: UInt8.self)
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        if end == 0 {
            guard let status else { return nil }
            if (100..<200).contains(status.code) {
                self.status = nil
                fields.removeAll(keepingCapacity: true)
                return nil
            }
            try Self.checkContentLength(fields)
            head = HTTPResponse(status: status, headerFields: fields)
            return head
        }
        if status == nil {
            (status, version) = try Self.statusLine(bytes, end)
            fields.reserveCapacity(16)
            return nil
        }
        guard let colon = bytes[0..<end].firstIndex(of: UInt8(ascii: ":")),
            let name = Self.commonName(UnsafeBufferPointer(rebasing: bytes[0..<colon]))
                ?? HTTPField.Name(Self.string(bytes, 0, colon))
        else {
            return nil  // a malformed field line is dropped, as libcurl's own parser would keep going
        }
        var start = colon + 1
        while start < end, Self.isOptionalWhitespace(bytes[start]) { start += 1 }
        while end > start, Self.isOptionalWhitespace(bytes[end - 1]) { end -= 1 }
        fields.append(HTTPField(name: name, value: Self.string(bytes, start, end)))
        return nil
    }

    /// Refuses a head whose Content-Length fields (or list members) are not all the same: its
    /// framing is invalid, and the response must be discarded (RFC 9112 §6.3). libcurl would use
    /// the last value, so two readers could see two different bodies.
    private static func checkContentLength(_ fields: HTTPFields) throws(SatchelError) {
        let declared = fields.compactMap { $0.name == .contentLength ? $0.value : nil }
        if declared.count < 2, declared.first?.utf8.contains(UInt8(ascii: ",")) != true { return }
        let values = declared.flatMap { $0.split(separator: ",") }
            .map { trimmingOptionalWhitespace($0) }
        guard let first = values.first, values.contains(where: { $0 != first }) else { return }
        throw SatchelError(
            .networkFailure,
            "the response has conflicting Content-Length values (\(values.joined(separator: ", "))); its framing is invalid (RFC 9112 §6.3)"
        )
    }

    /// Names sent on most responses, as written in RFC 9110 and in lower case (HTTP/2 and
    /// some servers), with their bytes.
    private static let commonNames: [(bytes: [UInt8], name: HTTPField.Name)] = {
        let names: [HTTPField.Name] = [
            .contentType, .contentLength, .date, .server, .connection, .lastModified, .eTag, .acceptRanges,
            .cacheControl, .contentEncoding, .transferEncoding, .vary, .expires, .location, .setCookie,
        ]
        return names.flatMap { name in
            [name.rawName, name.canonicalName].compactMap { HTTPField.Name($0) }.map { (Array($0.rawName.utf8), $0) }
        }
    }()

    /// The name of one of ``commonNames`` spelled exactly as `bytes`, without validating and
    /// lower-casing a new one.
    private static func commonName(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPField.Name? {
        for common in commonNames where common.bytes.count == bytes.count {
            var index = 0
            while index < bytes.count, common.bytes[index] == bytes[index] { index += 1 }
            if index == bytes.count { return common.name }
        }
        return nil
    }

    /// RFC 9110's OWS around a field value: space or horizontal tab.
    private static func isOptionalWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `text` without the optional whitespace at its ends.
    private static func trimmingOptionalWhitespace(_ text: Substring) -> String {
        let utf8 = text.utf8
        let start = utf8.firstIndex { !isOptionalWhitespace($0) } ?? utf8.endIndex
        let end = utf8[start...].lastIndex { !isOptionalWhitespace($0) }.map { utf8.index(after: $0) } ?? start
        return String(text[start..<end])
    }

    /// The bytes `start..<end` of a line as a string (invalid UTF-8 repaired).
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Parses `HTTP/1.1 200 OK` or `HTTP/2 200` from the bytes `0..<end`: `HTTP/` and the
    /// version up to the first space, spaces, a three-digit code from 100, then the end or one
    /// space and the reason phrase as sent.
    /// - Throws: ``SatchelError/Code/networkFailure`` for any other line.
    private static func statusLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ end: Int
    ) throws(SatchelError) -> (HTTPResponse.Status, version: String) {
        let space = UInt8(ascii: " ")
        var start = 0
        while start < end, bytes[start] == space { start += 1 }
        let versionEnd = bytes[start..<end].firstIndex(of: space) ?? end
        var codeStart = versionEnd
        while codeStart < end, bytes[codeStart] == space { codeStart += 1 }
        let codeEnd = bytes[codeStart..<end].firstIndex(of: space) ?? end
        var code = 0
        if codeEnd - codeStart == 3 {
            for index in codeStart..<codeEnd {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { code = 0; break }
                code = code * 10 + Int(digit)
            }
        }
        guard bytes[start..<end].starts(with: "HTTP/".utf8), code >= 100 else {
            throw SatchelError(
                .networkFailure, "the server sent a malformed status line: \(string(bytes, 0, min(end, 80)))")
        }
        let reason = codeEnd < end ? string(bytes, codeEnd + 1, end) : ""
        // A line with spaces before `HTTP/` names no version (as the first space ends it).
        let version = start == 0 ? string(bytes, "HTTP/".utf8.count, versionEnd) : ""
        return (HTTPResponse.Status(code: code, reasonPhrase: reason), version)
    }
}
