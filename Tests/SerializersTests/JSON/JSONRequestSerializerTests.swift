// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

@Suite struct JSONRequestSerializerTests {
    func request(_ method: HTTPRequest.Method, _ path: String = "/items") -> HTTPRequest {
        HTTPRequest(method: method, scheme: "https", authority: "example.com", path: path)
    }

    @Test func writesBodyAndContentTypeForBodyMethods() throws {
        for method in [HTTPRequest.Method.post, .put, .patch] {
            let serialized = try JSONRequestSerializer().serialize(["b": 1, "a": [true, nil]], into: request(method))
            #expect(serialized.body.map { String(decoding: $0, as: UTF8.self) } == #"{"b":1,"a":[true,null]}"#)
            #expect(serialized.request.headerFields[.contentType] == "application/json")
            #expect(serialized.request.path == "/items")
            #expect(serialized.request.headerFields[.userAgent]?.hasPrefix("Satchel/") == true)
            #expect(serialized.request.headerFields[.acceptLanguage] != nil)
        }
    }

    @Test func keepsAnExistingContentType() throws {
        var head = request(.post)
        head.headerFields[.contentType] = "application/vnd.api+json"
        let serialized = try JSONRequestSerializer().serialize(["a": 1], into: head)
        #expect(serialized.request.headerFields[.contentType] == "application/vnd.api+json")
    }

    @Test func putsParametersInTheQueryForGetHeadDelete() throws {
        for method in [HTTPRequest.Method.get, .head, .delete] {
            let serialized = try JSONRequestSerializer().serialize(
                ["q": "a b", "page": 2], into: request(method, "/search?x=1"))
            #expect(serialized.body == nil)
            #expect(serialized.request.path == "/search?x=1&page=2&q=a%20b")
            #expect(serialized.request.headerFields[.contentType] == nil)
        }
    }

    @Test func writingOptions() throws {
        var options = JSONWriter.Options()
        options.sortedKeys = true
        options.escapesSlashes = false
        options.prettyPrinted = true
        let body = try JSONRequestSerializer(writingOptions: options).encodeBody(["z": "a/b", "a": [1]])
        #expect(String(decoding: body, as: UTF8.self) == "{\n  \"a\": [\n    1\n  ],\n  \"z\": \"a/b\"\n}")
        let escaped = try JSONRequestSerializer().encodeBody(["u": "a/b"])
        #expect(String(decoding: escaped, as: UTF8.self) == #"{"u":"a\/b"}"#)
    }

    @Test func rejectsNonFiniteNumbersWithTheirPath() throws {
        do {
            _ = try JSONRequestSerializer().encodeBody(["a": [1.0, .double(.nan)]])
            Issue.record("NaN was written")
        } catch {
            #expect(error.code == .unencodableValue)
            #expect(error.keyPath == "$.a[1]")
        }
    }

    struct Order: Codable, Equatable {
        var id: UInt64
        var lines: [Line]
        var note: String?

        struct Line: Codable, Equatable {
            var sku: String
            var quantity: Int
        }
    }

    @Test func encodesEncodableTypesAndReadsThemBack() throws {
        let order = Order(id: UInt64.max, lines: [.init(sku: "A-1", quantity: 2)], note: nil)
        let body = try JSONRequestSerializer().encode(order)
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"id":18446744073709551615,"lines":[{"sku":"A-1","quantity":2}]}"#)
        #expect(try JSONResponseSerializer().decode(Order.self, from: body) == order)
    }

    @Test func responseSerializerFollowsAFNetworkingRules() throws {
        let serializer = JSONResponseSerializer()
        #expect(try serializer.decode([], contentType: nil, limits: .default) == nil)
        #expect(try serializer.decode([0x20], contentType: nil, limits: .default) == nil)
        #expect(try serializer.decode([0x20, 0x0D, 0x0A], contentType: nil, limits: .default) == nil)
        #expect(throws: SatchelError.self) { try serializer.decode([0x20, 0x2C], contentType: nil, limits: .default) }
        for type in [
            "application/json", "text/json", "text/javascript", "application/vnd.api+json",
            "application/problem+json; charset=utf-8",
        ] {
            let mediaType = try MediaType(parsing: type)
            #expect(serializer.acceptableContentTypes.accepts(mediaType), "\(type)")
        }
        #expect(!serializer.acceptableContentTypes.accepts(try MediaType(parsing: "text/html")))
    }

    @Test func incrementalResponseDecoderAppliesTheEmptyBodyRule() throws {
        let serializer = JSONResponseSerializer()
        let empty = try #require(serializer.makeIncrementalReader(contentType: .json, limits: .default))
        #expect(try empty.finish() == nil)
        let space = try #require(serializer.makeIncrementalReader(contentType: .json, limits: .default))
        try space.feed([0x20])
        #expect(try space.finish() == nil)
        let value = try #require(serializer.makeIncrementalReader(contentType: .json, limits: .default))
        try value.feed(Array("{\"a\":".utf8))
        try value.feed(Array("[1]}".utf8))
        #expect(try value.finish() == ["a": [1]])
    }

    @Test func standardRegistryDecodesAndEncodesJSON() throws {
        let registry = Registry.standard()
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json; charset=utf-8"])
        let decoded = registry.decode(response: response, body: Array(#"{"ok":true}"#.utf8))
        #expect(decoded.value == ["ok": true])
        #expect(decoded.error == nil)
        #expect(decoded.serializerName == "json")

        let failed = registry.decode(
            response: HTTPResponse(
                status: .internalServerError, headerFields: [.contentType: "application/problem+json"]),
            body: Array(#"{"title":"boom"}"#.utf8))
        #expect(failed.value == ["title": "boom"])
        #expect(failed.error?.code == .unacceptableStatusCode)
        #expect(failed.error?.decodedValue == ["title": "boom"])

        let pdf = registry.decode(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/pdf"]),
            body: Array("%PDF".utf8))
        #expect(pdf.value == nil)
        #expect(pdf.error?.code == .unacceptableContentType)

        let broken = registry.decode(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body: Array("{".utf8)
        )
        #expect(broken.error?.code == .truncatedInput)
        #expect(broken.error?.body == Array("{".utf8))

        for header in [
            "", "   ", "application", "application/", "application/json; charset", "application/json; charset=\"utf-8",
            "application/json; =x",
        ] {
            let bad = registry.decode(
                response: HTTPResponse(status: .ok, headerFields: [.contentType: header]), body: Array("{}".utf8))
            #expect(bad.value == nil, "\(header)")
            #expect(bad.error?.code == .invalidMediaType, "\(header)")
            #expect(bad.error?.offset != nil, "\(header)")
        }

        let encoded = try registry.encode(["a": 1], as: .json)
        #expect(encoded.body == Array(#"{"a":1}"#.utf8))
        #expect(encoded.contentType == .json)
        #expect(registry.acceptHeader.contains("application/json"))
    }
}
