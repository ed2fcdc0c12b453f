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

    @Test func acceptHeaderListsEveryResponseType() {
        let accept = Registry.standard().acceptHeader
        for type in ["application/json", "text/json", "text/javascript", "application/x-www-form-urlencoded", "multipart/*", "text/*", "application/problem+json", "application/http"] {
            #expect(accept.contains(type), "\(accept)")
        }
    }
}
