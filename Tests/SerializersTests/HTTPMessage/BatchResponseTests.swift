// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// Batch responses: multipart/mixed bodies of application/http parts, each decoded by its own
/// Content-Type, each with its own value or error. Fixtures in Tests/Fixtures/batch, written
/// from Google's batch documentation and the OData 4.01 `$batch` specification.
@Suite struct BatchResponseTests {
    static let directory = MultipartSamples.root.appendingPathComponent("Tests/Fixtures/batch")

    func decode(_ name: String) throws -> MultipartParts {
        let (body, contentType) = try MultipartSamples.load(name, in: Self.directory)
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: contentType.description])
        let result = Registry.standard().decode(response: response, body: body)
        #expect(result.error == nil, "\(String(describing: result.error))")
        return try #require(result.value?.multipartParts)
    }

    func message(_ element: MultipartParts.Element?) throws -> EmbeddedHTTPMessage {
        try #require(element?.value.httpMessage)
    }

    @Test func googleBatchPartsAnswerTheirRequestsByContentID() throws {
        let parts = try decode("google-batch-response")
        #expect(parts.count == 6)
        // Google's boundary is sent unquoted even though "=" is not a token character.
        let first = try message(parts.response(answering: "<8a09ca85-8d1d-4f45-9eb0-da8e8b07ec83+1>"))
        #expect(first.status == 200)
        #expect(first.error == nil)
        #expect(first.serializerName == "json")
        #expect(first.value["kind"] == "storage#objectAccessControl")
        #expect(first.header("etag") == "\"lGaP-E0memYDumK16YuUDM_6Gf0/V43j6azD55CPRGb9b6uytDYl61Y\"")

        // A failing sub-response keeps its decoded error body and its own status error.
        let missing = try message(parts.response(answering: "8a09ca85-8d1d-4f45-9eb0-da8e8b07ec83+2"))
        #expect(missing.status == 404)
        #expect(missing.error?.code == .unacceptableStatusCode)
        #expect(missing.value["error"]?["code"] == 404)

        let text = try message(parts.response(answering: "8a09ca85-8d1d-4f45-9eb0-da8e8b07ec83+3"))
        #expect(text.value == "café")
        #expect(parts.response(answering: "nothing") == nil)

        // PNG, Atom (XML) and plist sub-responses, each by its own Content-Type.
        let image = try #require(
            try message(parts.response(answering: "8a09ca85-8d1d-4f45-9eb0-da8e8b07ec83+4")).value.image)
        #expect(image.width == 2 && image.height == 2)
        #expect(Array(image.pixels.prefix(8)) == [255, 0, 0, 255, 0, 255, 0, 255])
        let feed = try #require(
            try message(parts.response(answering: "8a09ca85-8d1d-4f45-9eb0-da8e8b07ec83+5")).value.xmlDocument)
        #expect(try feed.string(xpath: "/a:feed/a:title", namespaces: ["a": "http://www.w3.org/2005/Atom"]) == "Batch")
        let plist = try message(parts.response(answering: "8a09ca85-8d1d-4f45-9eb0-da8e8b07ec83+6"))
        #expect(plist.value == ["bundle": "com.example.app", "build": 42])
    }

    @Test func aBoundaryThatNeverAppearsFailsTheBody() throws {
        let body = Array("HTTP/1.1 200 OK\r\n\r\n{}".utf8)
        let error = satchelError { try Registry.standard().decode(body, contentType: Self.batchType) }
        #expect(error?.code == .syntaxError)
        #expect(error?.message.contains("the boundary \"--batch\" never appears") == true)
    }

    @Test func odataChangeSetsNestAndKeepContentIDs() throws {
        let parts = try decode("odata-batch-response")
        #expect(parts.count == 3)
        #expect(try message(parts[0]).value["CustomerID"] == "ALFKI")
        let changeSet = try #require(parts[1].value.multipartParts)
        #expect(changeSet.mediaType?.subtype == "mixed")
        let created = try message(changeSet.part(contentID: "1"))
        #expect(created.status == 201)
        #expect(created.header("Location") == "http://host/service.svc/Customers('POIUY')")
        let noContent = try message(changeSet.part(contentID: "2"))
        #expect(noContent.status == 204)
        #expect(noContent.value == .null)
        let notFound = try message(parts[2])
        #expect(notFound.error?.code == .unacceptableStatusCode)
        #expect(notFound.value["error"]?["code"] == "NotFound")
    }

    @Test func theCanonicalFormIsDollarHTTP() throws {
        let parts = try decode("odata-batch-response")
        let json = Value.payload(parts).canonicalJSON()
        #expect(
            json.contains(
                #""value":{"$http":{"status":404,"reason":"Not Found","headers":[["Content-Type","application/json;odata.metadata=minimal"],["Content-Length","#
            ))
        #expect(
            json.contains(
                #""error":{"code":"unacceptableStatusCode","message":"status 404 Not Found is not acceptable""#))
    }

    @Test func everyFormatInOneBatchDecodesByItsOwnContentType() throws {
        let png = try ImageSamples.load("png-gray-1.png")
        let plist = try PropertyListWriter(format: .binary).write(["name": "Zoë", "count": 3])
        let body = Self.batch([
            Self.embedded("HTTP/1.1 200 OK", ["Content-Type: image/png"], png),
            Self.embedded(
                "HTTP/1.1 200 OK", ["Content-Type: application/atom+xml"],
                Array("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title></feed>".utf8)),
            Self.embedded("HTTP/1.1 200 OK", ["Content-Type: application/x-plist"], plist),
            Self.embedded("HTTP/1.1 200 OK", ["Content-Type: text/plain; charset=windows-1252"], [0x80, 0x31]),
            Self.embedded(
                "HTTP/1.1 200 OK", ["Content-Type: application/x-www-form-urlencoded"], Array("a=1&b[]=2".utf8)),
        ])
        let parts = try #require(try Registry.standard().decode(body, contentType: Self.batchType)?.multipartParts)
        let messages = try parts.map { try message($0) }
        #expect(messages.map(\.serializerName) == ["image", "xml", "plist", "text", "form"])
        let image = try #require(messages[0].value.image)
        #expect(image.width == 37)
        let document = try #require(messages[1].value.xmlDocument)
        #expect(try document.string(xpath: "/a:feed/a:title", namespaces: ["a": "http://www.w3.org/2005/Atom"]) == "t")
        #expect(messages[2].value == ["name": "Zoë", "count": 3])
        #expect(messages[3].value == "€1")
        #expect(messages[4].value == ["a": "1", "b": ["2"]])
    }

    @Test func aLyingPartFailsAloneWhileTheOthersDecode() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
        let body = Self.batch([
            Self.embedded("HTTP/1.1 200 OK", ["Content-Type: application/json"], png),
            Self.embedded("HTTP/1.1 200 OK", ["Content-Type: application/json"], Array("[1,2]".utf8)),
        ])
        let parts = try #require(try Registry.standard().decode(body, contentType: Self.batchType)?.multipartParts)
        let lying = try message(parts[0])
        let failure = try #require(lying.value.decodingFailure)
        #expect(failure.error.code == .syntaxError)
        #expect(try message(parts[1]).value == [1, 2])
    }

    @Test func malformedEmbeddedMessagesAreThatPartsError() throws {
        let cases: [([UInt8], SatchelError.Code, String)] = [
            (Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n".utf8), .truncatedInput, "header section"),
            (Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}".utf8), .truncatedInput, "2 of its 10"),
            (Array("HTTP/1.1 20 OK\r\n\r\n".utf8), .syntaxError, "three digits"),
            (Array("HTTP/2.0 200 OK\r\n\r\n".utf8), .syntaxError, "HTTP/1.x"),
            (Array("HTTP/1.1 200 OK\r\nX-Evil : 1\r\n\r\n".utf8), .syntaxError, "not a token"),
            (Array("HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n".utf8), .syntaxError, "folding"),
            (Array("HTTP/1.1 200 OK\r\nX-A: 1\rSet-Cookie: x\r\n\r\n".utf8), .syntaxError, "bare CR"),
            (Array("HTTP/1.1 200 OK\r\nX-A: \u{1}\r\n\r\n".utf8), .syntaxError, "control"),
            (Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}junk".utf8), .syntaxError, "follow"),
            (
                Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}".utf8), .syntaxError,
                "Content-Length"
            ),
            (
                Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8), .unsupportedFormat,
                "Transfer-Encoding"
            ),
            (Array("GET  HTTP/1.1\r\n\r\n".utf8), .syntaxError, "target"),
            (Array("HTTP/1.1 200".utf8), .truncatedInput, "start line"),
        ]
        for (embedded, code, mentions) in cases {
            let error = satchelError {
                try HTTPMessageResponseSerializer().decode(embedded, contentType: nil, limits: .default)
            }
            #expect(error?.code == code, "\(String(decoding: embedded, as: UTF8.self))")
            #expect(error?.message.contains(mentions) == true, "\(String(describing: error))")
            // Inside a batch, the same message is that part's $error and the next part decodes.
            let body = Self.batch([
                embedded, Self.embedded("HTTP/1.1 200 OK", ["Content-Type: application/json"], Array("1".utf8)),
            ])
            let parts = try #require(try Registry.standard().decode(body, contentType: Self.batchType)?.multipartParts)
            #expect((parts[0].value.decodingFailure)?.error.code == code)
            #expect(try message(parts[1]).value == 1)
        }
    }

    @Test func anOversizedEmbeddedHeadIsALimitError() throws {
        var limits = Limits()
        limits.maxPartHeaderBytes = 64
        let message = Array(("HTTP/1.1 200 OK\r\nX-Padding: " + String(repeating: "a", count: 100) + "\r\n\r\n").utf8)
        let error = satchelError {
            try HTTPMessageResponseSerializer().decode(message, contentType: nil, limits: limits)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxPartHeaderBytes")
        #expect(error?.offset == 64)
        var tiny = Limits()
        tiny.maxBodyBytes = 8
        #expect(
            satchelError { try HTTPMessageResponseSerializer().decode(message, contentType: nil, limits: tiny) }?.limit
                == "maxBodyBytes")
    }

    @Test func requestsAreParsedToo() throws {
        let request = Self.embedded(
            "POST /upload/v1/items HTTP/1.1", ["Content-Type: application/json", "Content-ID: <item1>"],
            Array("{\"a\":1}".utf8))
        let registry = Registry.standard()
        let message = try #require(
            try HTTPMessageResponseSerializer(registry: registry).decode(request, contentType: nil, limits: .default)?
                .httpMessage)
        #expect(message.method == "POST")
        #expect(message.target == "/upload/v1/items")
        #expect(message.value == ["a": 1])
        #expect(message.status == nil)
    }

    @Test func nestingAlternatingHTTPAndMultipartStopsAtTheDepthLimit() throws {
        var body = Self.embedded("HTTP/1.1 200 OK", ["Content-Type: application/json"], Array("1".utf8))
        for level in 0..<40 {
            let boundary = "level\(level)"
            let multipart =
                Array("--\(boundary)\r\nContent-Type: application/http\r\n\r\n".utf8) + body
                + Array("\r\n--\(boundary)--\r\n".utf8)
            body = Self.embedded("HTTP/1.1 200 OK", ["Content-Type: multipart/mixed; boundary=\(boundary)"], multipart)
        }
        var limits = Limits()
        limits.maxDepth = 20
        let error = satchelError {
            try Registry.standard(limits: limits).decode(body, contentType: try MediaType(parsing: "application/http"))
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
        // With room enough it decodes all the way down.
        limits.maxDepth = 200
        #expect(
            try Registry.standard(limits: limits).decode(body, contentType: try MediaType(parsing: "application/http"))
                != nil)
    }

    // MARK: - Building batches

    static let batchType = try! MediaType(parsing: "multipart/mixed; boundary=batch")

    static func embedded(_ startLine: String, _ headers: [String], _ body: [UInt8]) -> [UInt8] {
        Array((([startLine] + headers + ["Content-Length: \(body.count)", "", ""]).joined(separator: "\r\n")).utf8)
            + body
    }

    static func batch(_ messages: [[UInt8]]) -> [UInt8] {
        var body: [UInt8] = []
        for message in messages {
            body += Array("--batch\r\nContent-Type: application/http\r\n\r\n".utf8) + message + Array("\r\n".utf8)
        }
        return body + Array("--batch--\r\n".utf8)
    }
}
