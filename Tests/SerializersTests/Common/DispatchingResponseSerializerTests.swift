// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// The registry's default response serializer: dispatch by Content-Type, sniffing only when
/// the type is missing or `application/octet-stream`.
@Suite struct DispatchingResponseSerializerTests {
    let registry = Registry.standard()

    func response(_ contentType: String?, status: Int = 200) -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    @Test func theDeclaredTypeChoosesTheSerializer() {
        let result = registry.dispatchingSerializer.serialize(
            response: response("application/vnd.api+json"), body: Array("{\"title\":\"x\"}".utf8), validation: .init(),
            limits: .default)
        #expect(result.value == ["title": "x"])
        #expect(result.serializerName == "json")
        #expect(result.sniffedContentType == nil)
    }

    @Test func aMissingTypeIsSniffedAndReported() {
        let result = registry.decode(response: response(nil), body: Array(" {\"a\":[1]}".utf8))
        #expect(result.value == ["a": [1]])
        #expect(result.error == nil)
        #expect(result.serializerName == "json")
        #expect(result.sniffedContentType?.essence == "application/json")
        #expect(result.response.headerFields[.contentType] == nil)
    }

    @Test func octetStreamIsSniffed() {
        let result = registry.decode(response: response("application/octet-stream"), body: Array("[true]".utf8))
        #expect(result.value == [true])
        #expect(result.sniffedContentType?.essence == "application/json")
        #expect(result.response.headerFields[.contentType] == "application/octet-stream")
    }

    @Test func aDeclaredTypeIsNeverSecondGuessed() {
        // Form bytes declared as JSON are a JSON error, not sniffed into something else.
        let result = registry.decode(response: response("application/json"), body: Array("a=1".utf8))
        #expect(result.value == nil)
        #expect(result.error?.code == .syntaxError)
        #expect(result.sniffedContentType == nil)
    }

    @Test func aSniffedBodyThatFailsCarriesTheOriginalResponse() {
        let result = registry.decode(response: response(nil), body: Array("{\"a\":".utf8))
        #expect(result.error?.code == .truncatedInput)
        #expect(result.error?.response?.headerFields[.contentType] == nil)
        #expect(result.sniffedContentType?.essence == "application/json")
    }

    @Test func unrecognisableBodiesFailClearly() {
        let untyped = registry.decode(response: response(nil), body: Array("hello".utf8))
        #expect(untyped.error?.code == .unacceptableContentType)
        #expect(
            untyped.error?.message == "the response has a body but no Content-Type, and its format is not recognisable")
        let opaque = registry.decode(response: response("application/octet-stream"), body: [0, 1, 2])
        #expect(opaque.error?.message == "no registered serializer accepts Content-Type application/octet-stream")
        // The JSON serializer recognises `{`, but here it is registered for another type only.
        let narrow = Registry()
        narrow.register(
            JSONResponseSerializer(),
            for: MediaRangeList(accepting: [MediaType(type: "application", subtype: "x-only")]))
        let unknownSniff = narrow.decode(response: response(nil), body: Array("{}".utf8))
        #expect(unknownSniff.error?.message == "no registered serializer accepts the sniffed type application/json")
        // Sniffing is the registered serializers' capability: an empty registry recognises nothing.
        let nothingRegistered = DispatchingResponseSerializer(registry: Registry()).serialize(
            response: response(nil), body: Array("{}".utf8), validation: .init(), limits: .default)
        #expect(
            nothingRegistered.error?.message
                == "the response has a body but no Content-Type, and its format is not recognisable")
    }

    @Test func anEmptyBodyWithABadStatusIsAStatusError() {
        let result = registry.decode(response: response(nil, status: 404), body: [])
        #expect(result.value == nil)
        #expect(result.error?.code == .unacceptableStatusCode)
    }

    @Test func decodeSniffsToo() throws {
        let serializer = registry.dispatchingSerializer
        #expect(try serializer.decode(Array("{\"k\":null}".utf8), contentType: nil, limits: .default) == ["k": nil])
        #expect(try serializer.decode([], contentType: nil, limits: .default) == nil)
        let error = satchelError { try serializer.decode(Array("plain".utf8), contentType: nil, limits: .default) }
        #expect(error?.code == .unacceptableContentType)
    }

    /// The dispatcher hands the incremental reader to the member the Content-Type picks; the
    /// member's default checks the status and its own acceptable types.
    @Test func incrementalReadersComeFromTheChosenMember() throws {
        let dispatcher = registry.dispatchingSerializer
        let chosen = try #require(
            dispatcher.makeIncrementalReader(for: response("application/json"), validation: .init(), limits: .default))
        #expect(chosen.serializerName == "json")
        try chosen.reader.feed(Array(#"{"a":"#.utf8))
        try chosen.reader.feed(Array("1}".utf8))
        #expect(try chosen.reader.finish() == ["a": 1])
        #expect(
            dispatcher.makeIncrementalReader(
                for: response("application/json", status: 500), validation: .init(), limits: .default) == nil)
        #expect(dispatcher.makeIncrementalReader(for: response(nil), validation: .init(), limits: .default) == nil)
        #expect(
            dispatcher.makeIncrementalReader(
                for: response("application/x-unknown"), validation: .init(), limits: .default) == nil)
        // A serializer asked directly refuses a type it does not accept, unless validation names it.
        let json = JSONResponseSerializer()
        #expect(json.makeIncrementalReader(for: response("text/csv"), validation: .init(), limits: .default) == nil)
        let csvAllowed = ResponseValidation(
            acceptableContentTypes: MediaRangeList(accepting: [MediaType(type: "text", subtype: "csv")]))
        #expect(
            json.makeIncrementalReader(for: response("text/csv"), validation: csvAllowed, limits: .default)?
                .serializerName == "json")
    }
}
