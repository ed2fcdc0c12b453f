// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// `Registry.standard()` wires every built-in serializer together.
@Suite struct StandardRegistryTests {
    @Test func multipartRoundTripsThroughTheRegistry() throws {
        let registry = Registry.standard()
        let parameters: Value = ["user": ["name": "Ann", "tags": ["a", "b"]], "note": "x"]
        let encoded = try registry.encode(parameters, as: try MediaType(parsing: "multipart/form-data"))
        #expect(encoded.contentType.essence == "multipart/form-data")
        let boundary = try #require(encoded.contentType[parameter: "boundary"])
        #expect(!boundary.isEmpty)

        let response = HTTPResponse(status: .ok, headerFields: [.contentType: encoded.contentType.description])
        let decoded = registry.decode(response: response, body: encoded.body)
        #expect(decoded.error == nil)
        #expect(decoded.serializerName == "multipart")
        let parts = try #require(decoded.value?.multipartParts)
        // Typed access answers only for its own payload.
        #expect(decoded.value?.xmlDocument == nil)
        #expect(decoded.value?.image == nil)
        #expect(decoded.value?.httpMessage == nil)
        #expect(decoded.value?.decodingFailure == nil)
        #expect(decoded.value?.payload(as: MultipartParts.self) === parts)
        // Form naming and order: keys sorted, arrays as name[] in order.
        #expect(parts.map(\.part.name) == ["note", "user[name]", "user[tags][]", "user[tags][]"])
        #expect(parts.map(\.value) == ["x", "Ann", "a", "b"])
    }

    @Test func jsonPartsAreDecodedByTheirOwnContentType() throws {
        let registry = Registry.standard()
        var form = MultipartFormData(boundary: try MultipartBoundary("b0undary"))
        try form.append(Array(#"{"id":18446744073709551615}"#.utf8), name: "meta", filename: nil, mediaType: .json)
        try form.append(Array("{".utf8), name: "broken", filename: nil, mediaType: .json)
        let body = try form.bytes()
        let value = try registry.decode(body, contentType: form.contentType)
        let parts = try #require(value?.multipartParts)
        #expect(parts["meta"]?.value == ["id": .unsignedInteger(UInt64.max)])
        let failure = try #require(parts["broken"]?.value.decodingFailure)
        #expect(failure.error.code == .truncatedInput)
        #expect(value?.canonicalJSON().contains(#""$error":{"code":"truncatedInput""#) == true)
    }

    @Test func acceptHeaderIsShortAndCoversEveryResponseType() throws {
        let accept = Registry.standard().acceptHeader
        #expect(accept.utf8.count < 220, "\(accept)")
        #expect(accept.hasPrefix("application/json, "), "JSON first")
        let list = try MediaRangeList(parsing: accept)
        for type in [
            "application/json", "text/json", "text/javascript", "application/x-www-form-urlencoded",
            "multipart/form-data", "text/plain", "application/problem+json", "application/http", "image/png",
            "image/x-icon", "application/xml", "text/xml", "application/x-plist", "application/jsonl",
            "application/json-seq", "text/event-stream",
        ] {
            #expect(list.accepts(try MediaType(parsing: type)), "\(type) in \(accept)")
        }
        #expect(!list.accepts(try MediaType(parsing: "application/pdf")), "nothing it cannot decode")
    }

    struct User: Decodable, Equatable {
        var id: UInt64
        var name: String
    }

    @Test func decodedResponsesDecodeStraightIntoDecodables() throws {
        let registry = Registry.standard()
        let ok = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
        let user = try registry.decode(response: ok, body: Array(#"{"id":18446744073709551615,"name":"Ann"}"#.utf8))
            .decode(User.self)
        #expect(user == User(id: .max, name: "Ann"))

        // No value: an empty body decodes to nothing (AFNetworking's rule), which is not a User.
        let empty = registry.decode(response: ok, body: [])
        #expect(throws: SatchelError.self) { _ = try empty.decode(User.self) }
        #expect(empty.error == nil)
        #expect(empty.value == nil)

        // A bad status: the value is decoded, but decode() throws the status error.
        let teapot = HTTPResponse(status: 418, headerFields: [.contentType: "application/json"])
        let failed = registry.decode(response: teapot, body: Array(#"{"id":1,"name":"Ann"}"#.utf8))
        #expect(failed.value?["name"] == "Ann")
        let error = #expect(throws: SatchelError.self) { _ = try failed.decode(User.self) }
        #expect(error?.code == .unacceptableStatusCode)

        // A value of the wrong shape: the ValueDecoder's error, with its key path.
        let wrong = registry.decode(response: ok, body: Array(#"{"id":"x","name":"Ann"}"#.utf8))
        let mismatch = #expect(throws: SatchelError.self) { _ = try wrong.decode(User.self) }
        #expect(mismatch?.code == .typeMismatch)
    }

    @Test func binaryPropertyListsAreAskedForAsXBplist() throws {
        let registry = Registry.standard()
        let bplist = MediaType(type: "application", subtype: "x-bplist")
        let (body, contentType) = try registry.encode(["a": 1], as: bplist)
        #expect(body.starts(with: Array("bplist00".utf8)))
        #expect(contentType == PropertyListRequestSerializer.mediaType)
        #expect(try registry.decode(body, contentType: contentType) == ["a": 1])
        let (xml, _) = try registry.encode(["a": 1], as: PropertyListRequestSerializer.mediaType)
        #expect(xml.starts(with: Array("<?xml".utf8)))
    }
}
