import Foundation
import HTTPTypes
import SerializerRegistry

/// Builds a response head from the header lines libcurl hands over one by one, skipping
/// interim (1xx) heads.
struct ResponseHeadParser {
    private var status: HTTPResponse.Status?
    private var fields = HTTPFields()
    /// The final head, once its blank line arrived.
    private(set) var head: HTTPResponse?
    /// The HTTP version of the status line, such as `"1.1"` or `"2"`.
    private(set) var version = ""

    /// Takes one header line (with or without its CRLF).
    /// - Returns: The final head when `line` completed it.
    /// - Throws: ``SatchelError/Code/networkFailure`` for a malformed status line, or a final head
    ///   whose Content-Length values disagree.
    mutating func take(_ line: UnsafeRawBufferPointer) throws(SatchelError) -> HTTPResponse? {
        guard head == nil else { return nil }  // trailers
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
        if end == 0 {
            guard let status else { return nil }
            if (100..<200).contains(status.code) {
                self.status = nil
                fields = HTTPFields()
                return nil
            }
            try Self.checkContentLength(fields)
            head = HTTPResponse(status: status, headerFields: fields)
            return head
        }
        if status == nil {
            status = try Self.status(from: text)
            version = String(text.prefix { $0 != " " }.dropFirst("HTTP/".count))
            return nil
        }
        guard let colon = text.firstIndex(of: ":"), let name = HTTPField.Name(String(text[..<colon])) else {
            return nil  // a malformed field line is dropped, as libcurl's own parser would keep going
        }
        let value = text[text.index(after: colon)...].trimmingCharacters(in: Self.optionalWhitespace)
        fields.append(HTTPField(name: name, value: value))
        return nil
    }

    /// Refuses a head whose Content-Length fields (or list members) are not all the same: its
    /// framing is invalid, and the response must be discarded (RFC 9112 §6.3). libcurl would use
    /// the last value, so two readers could see two different bodies.
    private static func checkContentLength(_ fields: HTTPFields) throws(SatchelError) {
        let values = fields[values: .contentLength].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: optionalWhitespace) }
        guard let first = values.first, values.contains(where: { $0 != first }) else { return }
        throw SatchelError(
            .networkFailure,
            "the response has conflicting Content-Length values (\(values.joined(separator: ", "))); its framing is invalid (RFC 9112 §6.3)")
    }

    /// RFC 9110's OWS around a field value.
    private static let optionalWhitespace = CharacterSet(charactersIn: " \t")

    /// Parses `HTTP/1.1 200 OK` or `HTTP/2 200`.
    private static func status(from line: String) throws(SatchelError) -> HTTPResponse.Status {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3, let code = Int(parts[1]), code >= 100 else {
            throw SatchelError(.networkFailure, "the server sent a malformed status line: \(line.prefix(80))")
        }
        let reason = parts.count > 2 ? String(parts[2]) : ""
        return HTTPResponse.Status(code: code, reasonPhrase: reason)
    }
}
