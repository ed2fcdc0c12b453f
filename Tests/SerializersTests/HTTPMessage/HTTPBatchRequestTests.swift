// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// Building a batch request: each request an `application/http` part that reads back as the
/// request it was, and no request able to smuggle a header or another request into the batch.
@Suite struct HTTPBatchRequestTests {
    /// The batch's body decoded as a response of its own Content-Type would be.
    func parts(of batch: HTTPBatchRequest) throws -> MultipartParts {
        let body = try batch.multipart.bytes()
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: batch.contentType.description])
        let decoded = Registry.standard().decode(response: head, body: body)
        #expect(decoded.error == nil, "\(String(describing: decoded.error))")
        return try #require(decoded.value?.multipartParts)
    }

    @Test func eachRequestReadsBackAsItWas() throws {
        var batch = HTTPBatchRequest()
        try batch.append(HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/users/1?x=1"))
        let json = Array(#"{"name":"Ann","tags":[1,2]}"#.utf8)
        try batch.append(
            HTTPRequest(
                method: .post, scheme: nil, authority: nil, path: "/users",
                headerFields: [.contentType: "application/json", .authorization: "Bearer t"]),
            body: json, contentID: "new-user")
        #expect(batch.count == 2 && batch.contentType.essence == "multipart/mixed")
        let parts = try parts(of: batch)
        #expect(parts.count == 2)
        let get = try #require(parts[0].value.httpMessage)
        #expect(get.method == "GET" && get.target == "/users/1?x=1" && get.version == "HTTP/1.1")
        #expect(get.header("Host") == "api.example.com" && get.bodySize == 0)
        let post = try #require(parts[1].value.httpMessage)
        #expect(post.method == "POST" && post.target == "/users")
        #expect(post.header("content-length") == String(json.count) && post.header("authorization") == "Bearer t")
        #expect(post.value == ["name": "Ann", "tags": [1, 2]])
        #expect(parts[1].part.headers.first { $0.name == "Content-ID" }?.value == "<new-user>")
    }

    /// A target with a space or a line break, a header value with CR or LF (were HTTPTypes to let
    /// one through), or a Content-ID that is not one visible token: refused, nothing appended.
    @Test(
        arguments: [
            ("/a b", nil), ("/x\r\nHost: evil", nil), ("", nil), ("/ok", "a>b"), ("/ok", "two words"), ("/ok", ""),
        ] as [(String, String?)])
    func hostileRequestsAreRefused(target: String, contentID: String?) throws {
        var batch = HTTPBatchRequest()
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: target)
        let error = #expect(throws: SatchelError.self) { try batch.append(request, contentID: contentID) }
        #expect(error?.code == .invalidArgument && error?.message.hasPrefix("batch request 0: ") == true)
        #expect(batch.count == 0)
    }
}
