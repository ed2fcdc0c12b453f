// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel
import XCTest

@testable import SatchelServer

/// `POST /batch`: a multipart/mixed of application/http requests, answered part by part.
final class BatchTests: XCTestCase {
    /// A batch part: an embedded HTTP request with a Content-ID.
    private static func part(_ id: String, _ message: String) throws -> MultipartPart {
        MultipartPart(
            mediaType: try MediaType(parsing: "application/http"),
            headers: [.init(name: "Content-ID", value: "<\(id)>")],
            body: .bytes(Array(message.utf8)))
    }

    func testBatchRoundTripDecodesPartByPart() async throws {
        let echoBody = #"{"q":"satchel","n":[1,2]}"#
        var batch = MultipartFormData(subtype: .mixed)
        try batch.append(Self.part("json", "GET /json HTTP/1.1\r\nHost: fixture\r\n\r\n"))
        try batch.append(
            Self.part(
                "echo",
                "POST /echo?page=2 HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: \(echoBody.utf8.count)\r\n\r\n\(echoBody)"
            ))
        try batch.append(Self.part("missing", "GET /status/404 HTTP/1.1\r\n\r\n"))
        try batch.append(Self.part("range", "GET /bytes/300 HTTP/1.1\r\nRange: bytes=251-254\r\n\r\n"))
        try batch.append(Self.part("plist", "GET /plist-binary HTTP/1.1\r\n\r\n"))
        try batch.append(Self.part("junk", "this is not an HTTP message"))

        try await ServerTestSupport.withServer { server in
            let response = try await (try ServerTestSupport.session(server)).result(
                for: SessionRequest(.post, "batch", body: .multipart(batch))
            ).get()
            XCTAssertEqual(response.response.status.code, 200)
            let answerType = try MediaType(parsing: try XCTUnwrap(response.response.headerFields[.contentType]))
            XCTAssertEqual(answerType.essence, "multipart/mixed")
            XCTAssertNotNil(answerType[parameter: "boundary"])
            let parts = try XCTUnwrap(ServerTestSupport.json(response).multipartParts)
            XCTAssertEqual(parts.count, 6)
            func message(_ id: String) throws -> EmbeddedHTTPMessage {
                let element = try XCTUnwrap(parts.response(answering: id), id)
                XCTAssertEqual(element.part.contentType, "application/http")
                return try XCTUnwrap(element.value.httpMessage, id)
            }
            let json = try message("json")
            XCTAssertEqual(json.status, 200)
            XCTAssertEqual(json.header("content-type"), "application/json")
            XCTAssertEqual(json.value, FixtureDocument.value)

            let echo = try message("echo")
            XCTAssertEqual(echo.value["method"], "POST")
            XCTAssertEqual(echo.value["query"], ["page": "2"])
            XCTAssertEqual(echo.value["body"], ["q": "satchel", "n": [1, 2]])

            let missing = try message("missing")
            XCTAssertEqual(missing.status, 404)
            XCTAssertEqual(missing.error?.code, .unacceptableStatusCode)
            XCTAssertEqual(missing.value["status"], 404)

            let range = try message("range")
            XCTAssertEqual(range.status, 206)
            XCTAssertEqual(range.header("Content-Range"), "bytes 251-254/300")
            XCTAssertEqual(range.bodySize, 4)

            XCTAssertEqual(try message("plist").value, FixtureDocument.propertyListValue)

            let junk = try message("junk")
            XCTAssertEqual(junk.status, 400)
            XCTAssertEqual(junk.header("Content-Type"), "application/problem+json")

            // An independent reader: Python's email package splits the same body into six
            // application/http parts, each an HTTP/1.1 status line.
            let contentType = try XCTUnwrap(response.response.headerFields[.contentType])
            let summary = try ServerTestSupport.runPython(
                """
                import sys, email
                from email import policy
                raw = b'Content-Type: \(contentType)\\r\\n\\r\\n' + sys.stdin.buffer.read()
                message = email.message_from_bytes(raw, policy=policy.HTTP)
                print(' '.join(p.get_content_type() + ':' + p.get_payload(decode=True).split(b' ')[1].decode() for p in message.iter_parts()))
                """, input: response.body)
            XCTAssertEqual(
                summary,
                "application/http:200 application/http:200 application/http:404 application/http:206 application/http:200 application/http:400"
            )
        }
    }

    /// The batch builder's requests, answered by `satchel serve` in order, each by Content-ID.
    func testTheBatchBuilderRoundTrips() async throws {
        var batch = HTTPBatchRequest()
        try batch.append(HTTPRequest(method: .get, scheme: nil, authority: "fixture", path: "/json"), contentID: "json")
        try batch.append(
            HTTPRequest(
                method: .post, scheme: nil, authority: nil, path: "/echo?page=2",
                headerFields: [.contentType: "application/json"]),
            body: Array(#"{"q":"satchel"}"#.utf8), contentID: "echo")
        try batch.append(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/status/404"), contentID: "gone")
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let answer = try await session.upload(.multipart(batch), to: "batch")
            let parts = try XCTUnwrap(answer.value?.multipartParts)
            XCTAssertEqual(parts.count, 3)
            XCTAssertEqual(parts.response(answering: "json")?.value.httpMessage?.value, FixtureDocument.value)
            let echo = try XCTUnwrap(parts.response(answering: "echo")?.value.httpMessage)
            XCTAssertEqual(echo.value["method"], "POST")
            XCTAssertEqual(echo.value["query"], ["page": "2"])
            XCTAssertEqual(echo.value["body"], ["q": "satchel"])
            XCTAssertEqual(parts.response(answering: "gone")?.value.httpMessage?.status, 404)
        }
    }

    func testBadBatchesAreProblems() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let get = try await session.fetch("batch")
            XCTAssertEqual(get.response.status.code, 405)
            XCTAssertEqual(get.response.headerFields[.allow], "POST")

            let json = try await session.result(
                for: SessionRequest(.post, "batch", body: .bytes(Array("{}".utf8), contentType: .json))
            ).get()
            XCTAssertEqual(json.response.status.code, 400)
            XCTAssertEqual(json.error?.problemDetails?.detail, "/batch takes multipart/mixed, not application/json")

            let truncated = "--b\r\nContent-Type: application/http\r\n\r\nGET /json HTTP/1.1\r\n\r\n"
            let cut = try await session.result(
                for: SessionRequest(
                    .post, "batch",
                    body: .bytes(
                        Array(truncated.utf8), contentType: try MediaType(parsing: "multipart/mixed; boundary=b")))
            ).get()
            XCTAssertEqual(cut.response.status.code, 400)
            XCTAssertTrue(
                cut.error?.problemDetails?.detail?.contains("truncatedInput") ?? false,
                "\(String(describing: cut.error))")

            var nested = MultipartFormData(subtype: .mixed)
            try nested.append(
                Self.part("inner", "POST /batch HTTP/1.1\r\nContent-Type: multipart/mixed; boundary=z\r\n\r\n--z--\r\n")
            )
            let answer = try await session.result(for: SessionRequest(.post, "batch", body: .multipart(nested))).get()
            let inner = try XCTUnwrap(try ServerTestSupport.json(answer).multipartParts)
            let message = try XCTUnwrap(inner.first?.value.httpMessage)
            XCTAssertEqual(message.status, 400)
        }
    }
}
