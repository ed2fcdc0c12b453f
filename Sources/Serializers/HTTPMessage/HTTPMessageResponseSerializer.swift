// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Decodes `application/http` (and `message/http`) bodies — the parts of a batch response — into
/// an ``EmbeddedHTTPMessage``.
///
/// The start line and headers are parsed strictly (RFC 9112); the body is the
/// `Content-Length` bytes that follow (trailing line ends are allowed, anything else after it is
/// an error, fewer bytes are ``SatchelError/Code/truncatedInput``), or without `Content-Length`
/// the rest with trailing line ends removed. An embedded response's body is decoded through
/// ``registry`` per its own Content-Type and its status validated with the registry's
/// ``Registry/validation``: a 404 keeps its decoded JSON error body as the value and reports
/// the status as ``EmbeddedHTTPMessage/error``, so one failing sub-response does not lose the
/// others. Each embedded level counts against ``Limits/maxDepth``.
public struct HTTPMessageResponseSerializer: ResponseSerializer {
    /// `"http"`.
    public var name: String { "http" }
    /// `application/http` and `message/http`.
    public var acceptableContentTypes: MediaRangeList {
        MediaRangeList(accepting: [
            MediaType(type: "application", subtype: "http"), MediaType(type: "message", subtype: "http"),
        ])
    }
    /// Decodes embedded bodies; held weakly so a registry can hold this serializer. Without
    /// one, a body is text when it is valid UTF-8 and bytes otherwise.
    public weak var registry: Registry?

    /// Creates a serializer decoding embedded bodies through `registry` (held weakly).
    public init(registry: Registry? = nil) {
        self.registry = registry
    }

    /// Parses the embedded message and decodes its body.
    ///
    /// - Returns: ``Value/payload(_:)`` with an ``EmbeddedHTTPMessage``, or `nil` for an empty body.
    /// - Throws: ``SatchelError``: `syntaxError` and `truncatedInput` with the byte offset for a
    ///   malformed or unterminated message, `unsupportedFormat` for `Transfer-Encoding`,
    ///   `limitExceeded` for ``Limits/maxDepth`` and the limits of the embedded body.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if body.isEmpty { return nil }
        try limits.checkBody(count: body.count)
        guard limits.maxDepth > 0 else {
            throw SatchelError.limitExceeded("maxDepth", limits.maxDepth, "an embedded HTTP message nested this deep")
        }
        var nested = limits
        nested.maxDepth -= 1
        let head = try EmbeddedHTTPHead(parsing: body, limits: limits)
        let content = try Self.content(of: body, head: head)
        return .payload(try message(head, Array(content), limits: nested))
    }

    /// The body bytes of the message whose head is `head`.
    static func content(of body: [UInt8], head: EmbeddedHTTPHead) throws(SatchelError) -> ArraySlice<UInt8> {
        if head.header("Transfer-Encoding") != nil {
            throw SatchelError(
                .unsupportedFormat,
                "Transfer-Encoding in an embedded HTTP message is not supported; send Content-Length")
        }
        let rest = body[head.bodyOffset...]
        let lengths = head.headers.values(named: "Content-Length")
        guard let declared = lengths.first else {
            let end = rest.lastIndex { $0 != 0x0D && $0 != 0x0A }.map { $0 + 1 } ?? rest.startIndex
            return rest[..<end]
        }
        guard lengths.allSatisfy({ $0 == declared }), declared.count <= 18, !declared.isEmpty,
            declared.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(declared)
        else {
            throw SatchelError(
                .syntaxError, "the embedded Content-Length \(lengths.joined(separator: ", ")) is invalid",
                offset: head.bodyOffset)
        }
        guard length <= rest.count else {
            throw SatchelError(
                .truncatedInput, "the embedded HTTP body ends after \(rest.count) of its \(length) bytes",
                offset: body.count)
        }
        let end = rest.startIndex + length
        if let junk = rest[end...].firstIndex(where: { ![0x0D, 0x0A, 0x20, 0x09].contains($0) }) {
            throw SatchelError(.syntaxError, "bytes follow the \(length)-byte embedded HTTP body", offset: junk)
        }
        return rest[..<end]
    }

    /// Decodes the body and validates the status.
    private func message(
        _ head: EmbeddedHTTPHead, _ content: [UInt8], limits: Limits
    ) throws(SatchelError) -> EmbeddedHTTPMessage {
        guard let registry else {
            let value: Value =
                content.isEmpty
                ? .null : String(validating: content, as: UTF8.self).map(Value.string) ?? .bytes(content)
            return EmbeddedHTTPMessage(
                head: head, bodySize: content.count, value: value, error: nil, serializerName: nil)
        }
        var fields = HTTPFields()
        for header in head.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        switch head.startLine {
        case .response(_, let status, let reason):
            let response = HTTPResponse(status: .init(code: status, reasonPhrase: reason), headerFields: fields)
            let result = registry.dispatchingSerializer.serialize(
                response: response, body: content, validation: registry.validation, limits: limits)
            var value = result.value ?? .null
            var error = result.error
            if let failure = error, failure.code == .limitExceeded { throw failure }
            if let failure = error, failure.code != .unacceptableStatusCode {
                value = .payload(DecodingFailure(failure))
                error = nil
            } else if let underlying = error?.underlying as? SatchelError {
                if underlying.code == .limitExceeded { throw underlying }
                value = .payload(DecodingFailure(underlying))
            }
            return EmbeddedHTTPMessage(
                head: head, bodySize: content.count, value: value, error: error, serializerName: result.serializerName)
        case .request:
            var value = Value.null
            do throws(SatchelError) {
                let contentType = try fields[.contentType].map { text throws(SatchelError) in
                    try MediaType(parsing: text)
                }
                value =
                    try registry.dispatchingSerializer.decode(content, contentType: contentType, limits: limits)
                    ?? .null
            } catch  where error.code != .limitExceeded {
                value = .payload(DecodingFailure(error))
            }
            return EmbeddedHTTPMessage(
                head: head, bodySize: content.count, value: value, error: nil, serializerName: nil)
        }
    }
}
