// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// A batch request: several HTTP requests sent as one `multipart/mixed` body of
/// `application/http` parts (the batch format of Google's APIs, OData and `satchel serve`'s
/// `POST /batch`), answered by a `multipart/mixed` body of `application/http` responses in the
/// same order.
///
/// Each part is an HTTP/1.1 request — start line, header fields, body — checked as it is
/// appended, so that no request can smuggle a header or a second request into the batch. The
/// answer is decoded like any response: its parts are ``EmbeddedHTTPMessage``s (`$http`), each
/// with its status, headers and body decoded by the registry.
///
/// ```swift
/// var batch = HTTPBatchRequest()
/// try batch.append(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/1"))
/// try batch.append(
///     HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/users", headerFields: [.contentType: "application/json"]),
///     body: Array(#"{"name":"Ann"}"#.utf8), contentID: "new-user")
/// let answer = try await session.upload(.multipart(batch), to: "batch")
/// for part in answer.value?.multipartParts ?? [] {
///     print(part.value.httpMessage?.status ?? 0, part.value.httpMessage?.value ?? .null)
/// }
/// ```
public struct HTTPBatchRequest: RequestBodySource, Sendable {
    /// The body: one `application/http` part per request.
    public private(set) var multipart: MultipartFormData
    /// How many requests the batch holds.
    public var count: Int { multipart.parts.count }

    /// An empty batch.
    /// - Parameter boundary: The multipart boundary; random by default.
    public init(boundary: MultipartBoundary = .random()) {
        multipart = MultipartFormData(subtype: .mixed, boundary: boundary)
    }

    /// `multipart/mixed; boundary=…`.
    public var contentType: MediaType { multipart.contentType }

    /// A new stream over the whole batch.
    public func makeRequestBodyStream() throws(SatchelError) -> any BodyStream {
        try multipart.makeRequestBodyStream()
    }

    /// Appends a request as an `application/http` part: its method, its path as the request
    /// target, `Host` from its authority, its header fields, and
    /// `body` with a `Content-Length`.
    ///
    /// - Parameters:
    ///   - request: The request; its scheme is not sent.
    ///   - body: The request's body.
    ///   - contentID: The part's `Content-ID` (in angle brackets), which batch servers echo as
    ///     `<response-ID>` on the answer.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a request target with a space or a
    ///   control character, a header value with CR, LF or another control character, or a
    ///   Content-ID that is not one line of visible characters; nothing is appended then.
    public mutating func append(
        _ request: HTTPRequest, body: [UInt8] = [], contentID: String? = nil
    ) throws(SatchelError) {
        let index = count
        func invalid(_ message: String) -> SatchelError {
            SatchelError(.invalidArgument, "batch request \(index): \(message)")
        }
        let target = request.path ?? "/"
        if target.isEmpty || target.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw invalid(
                "the request target \(Value.string(target).canonicalJSON()) is empty or has a space or a control character"
            )
        }
        var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\n"
        var fields = request.headerFields
        // HTTPTypes keeps the Host as the authority, never as a field.
        if let authority = request.authority { head += "Host: \(authority)\r\n" }
        if !body.isEmpty || fields[.contentLength] != nil { fields[.contentLength] = String(body.count) }
        for field in fields {
            if let (offset, byte) = MultipartHeaderEscaping.firstForbiddenByte(inHeaderValue: field.value) {
                throw invalid(
                    "the value of \(field.name.rawName) has \(MultipartBoundary.describe(byte)) at position \(offset)")
            }
            head += "\(field.name.rawName): \(field.value)\r\n"
        }
        var headers = [MultipartPart.Header(name: "Content-Transfer-Encoding", value: "binary")]
        if let contentID {
            if contentID.isEmpty
                || contentID.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x3C || $0 == 0x3E })
            {
                throw invalid(
                    "the Content-ID \(Value.string(contentID).canonicalJSON()) is not one token of visible characters")
            }
            headers.append(MultipartPart.Header(name: "Content-ID", value: "<\(contentID)>"))
        }
        try multipart.append(
            MultipartPart(
                mediaType: MediaType(type: "application", subtype: "http"), headers: headers,
                body: .bytes(Array((head + "\r\n").utf8) + body)))
    }
}
