// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Testing

/// AFNetworking's `AFHTTPResponseSerializer` semantics: Content-Type is checked first and an
/// unacceptable one is not decoded; a bad status still decodes and returns value and error.
@Suite("Response validation through a serializer")
struct SerializerValidationTests {
    let limits = Limits.default

    @Test func acceptableResponseDecodes() throws {
        let serializer = TextSerializer()
        let result = serializer.serialize(
            response: response(200, contentType: "text/plain; charset=utf-8"), body: Array("hello".utf8), limits: limits
        )
        #expect(result.value == "hello")
        #expect(result.error == nil)
        #expect(result.serializerName == "text")
        #expect(result.response.status.code == 200)
        #expect(try result.get() == "hello")
        #expect(serializer.calls.value == 1)
    }

    @Test func contentTypeComparisonIgnoresCaseAndParameters() {
        let serializer = TextSerializer()
        let result = serializer.serialize(
            response: response(200, contentType: "TEXT/Plain ; Charset=\"UTF-8\""), body: Array("x".utf8),
            limits: limits)
        #expect(result.error == nil)
        #expect(result.value == "x")
    }

    @Test func unacceptableContentTypeIsNotDecoded() throws {
        let serializer = TextSerializer()
        let head = response(200, contentType: "application/json")
        let result = serializer.serialize(response: head, body: Array("{}".utf8), limits: limits)
        let error = try #require(result.error)
        #expect(error.code == .unacceptableContentType)
        #expect(result.value == nil)
        #expect(serializer.calls.value == 0, "the decoder must not run")
        #expect(error.response == head)
        #expect(error.body == Array("{}".utf8))
        #expect(error.decodedValue == nil)
        #expect(throws: SatchelError.self) { try result.get() }
    }

    @Test func unacceptableContentTypeWinsOverBadStatus() throws {
        let serializer = TextSerializer()
        let result = serializer.serialize(
            response: response(500, contentType: "text/html"), body: Array("<p>".utf8), limits: limits)
        #expect(result.error?.code == .unacceptableContentType)
        #expect(result.value == nil)
        #expect(serializer.calls.value == 0)
    }

    @Test(arguments: [404, 500, 302, 199, 300])
    func badStatusStillDecodes(status: Int) throws {
        let serializer = TextSerializer()
        let head = response(status, contentType: "text/plain")
        let body = Array("problem details".utf8)
        let result = serializer.serialize(response: head, body: body, limits: limits)
        #expect(result.value == "problem details")
        let error = try #require(result.error)
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.decodedValue == "problem details")
        #expect(error.response?.status.code == status)
        #expect(error.body == body)
        #expect(error.message == "status \(status) is not acceptable", "no reason phrase, no double space")
        #expect(serializer.calls.value == 1)

        let thrown = #expect(throws: SatchelError.self) { try result.get() }
        #expect(thrown?.decodedValue == "problem details")
    }

    @Test func statusMessageNamesTheReasonPhrase() {
        let head = HTTPResponse(status: .notFound, headerFields: [.contentType: "text/plain"])
        let result = TextSerializer().serialize(response: head, body: [], limits: limits)
        #expect(result.error?.message == "status 404 Not Found is not acceptable")
    }

    @Test(arguments: [200, 201, 204, 299])
    func defaultAcceptableStatusCodes(status: Int) {
        let result = TextSerializer().serialize(
            response: response(status, contentType: "text/plain"), body: Array("ok".utf8), limits: limits)
        #expect(result.error == nil)
    }

    @Test func capturedBodyIsCappedAt64KiB() throws {
        let serializer = TextSerializer()
        let body = (0..<100_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let result = serializer.serialize(
            response: response(500, contentType: "text/plain"), body: body, limits: limits)
        let error = try #require(result.error)
        #expect(SatchelError.bodyCaptureLimit == 65_536)
        #expect(error.body == Array(body.prefix(65_536)))
        // The value is decoded from the whole body, not the captured part.
        #expect(result.value?.stringValue?.utf8.count == 100_000)

        let unacceptable = serializer.serialize(
            response: response(200, contentType: "text/html"), body: body, limits: limits)
        #expect(unacceptable.error?.body?.count == 65_536)

        let small = serializer.serialize(
            response: response(500, contentType: "text/plain"), body: Array(body.prefix(65_536)), limits: limits)
        #expect(small.error?.body?.count == 65_536)
    }

    @Test func noContentTypeAndEmptyBodyPasses() throws {
        let serializer = TextSerializer()
        let result = serializer.serialize(response: response(200), body: [], limits: limits)
        #expect(result.error == nil)
        #expect(result.value == nil)
        #expect(try result.get() == nil)
    }

    @Test func noContentTypeAndEmptyBodyWithBadStatus() throws {
        let result = TextSerializer().serialize(response: response(503), body: [], limits: limits)
        #expect(result.error?.code == .unacceptableStatusCode)
        #expect(result.value == nil)
        #expect(result.error?.body == [])
    }

    @Test func noContentTypeWithBodyFails() throws {
        let serializer = TextSerializer()
        let result = serializer.serialize(response: response(200), body: Array("data".utf8), limits: limits)
        #expect(result.error?.code == .unacceptableContentType)
        #expect(result.error?.body == Array("data".utf8))
        #expect(result.value == nil)
        #expect(serializer.calls.value == 0)
    }

    @Test func emptyBodyWithUnacceptableContentTypeIsNoValue() throws {
        // AFNetworking only reports the Content-Type of a response that has data: a HEAD or 204
        // response of another type is no value, and nothing is decoded.
        let serializer = TextSerializer()
        let result = serializer.serialize(response: response(204, contentType: "text/html"), body: [], limits: limits)
        #expect(result.error == nil)
        #expect(result.value == nil)
        #expect(serializer.calls.value == 0)

        let failed = serializer.serialize(response: response(404, contentType: "text/html"), body: [], limits: limits)
        #expect(failed.error?.code == .unacceptableStatusCode)
        #expect(serializer.calls.value == 0)
    }

    @Test func malformedContentType() throws {
        let serializer = TextSerializer()
        let head = response(200, contentType: "text/plain; charset")
        let result = serializer.serialize(response: head, body: Array("x".utf8), limits: limits)
        let error = try #require(result.error)
        #expect(error.code == .invalidMediaType)
        #expect(error.offset == 19)
        #expect(error.response == head)
        #expect(error.body == Array("x".utf8))
        #expect(result.value == nil)
        #expect(serializer.calls.value == 0)
    }

    @Test func decodeErrorIsTheError() throws {
        let serializer = FailingSerializer()
        let head = response(200, contentType: "application/json")
        let result = serializer.serialize(response: head, body: Array("{]".utf8), limits: limits)
        let error = try #require(result.error)
        #expect(error.code == .syntaxError)
        #expect(error.offset == 3)
        #expect(error.response == head)
        #expect(error.body == Array("{]".utf8))
        #expect(result.value == nil)
        #expect(result.serializerName == "failing")
    }

    @Test func decodeErrorUnderBadStatusBecomesUnderlying() throws {
        let serializer = FailingSerializer()
        let result = serializer.serialize(
            response: response(500, contentType: "application/json"), body: Array("{]".utf8), limits: limits)
        let error = try #require(result.error)
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.decodedValue == nil)
        let underlying = try #require(error.underlying as? SatchelError)
        #expect(underlying.code == .syntaxError)
        #expect(underlying.offset == 3)
        #expect(result.value == nil)
        #expect(serializer.calls.value == 1)
    }

    @Test func aSerializersWrappedForeignErrorIsReportedAsItIs() throws {
        let result = ForeignFailingSerializer().serialize(
            response: response(200, contentType: "application/json"), body: [1], limits: limits)
        let error = try #require(result.error)
        #expect(error.code == .internal)
        #expect(error.underlying is ForeignError)
        #expect(error.message == "foreign failure")
        #expect(error.response?.status.code == 200)
        #expect(error.body == [1])
    }

    @Test func customAcceptableStatusCodes() throws {
        let validation = ResponseValidation(acceptableStatusCodes: [200..<300, 404..<405])
        #expect(validation.accepts(status: 404))
        #expect(!validation.accepts(status: 405))
        let serializer = TextSerializer()
        let notFound = serializer.serialize(
            response: response(404, contentType: "text/plain"), body: Array("gone".utf8), validation: validation,
            limits: limits)
        #expect(notFound.error == nil)
        #expect(notFound.value == "gone")

        let strict = ResponseValidation(acceptableStatusCodes: [200..<201])
        let created = serializer.serialize(
            response: response(201, contentType: "text/plain"), body: Array("x".utf8), validation: strict,
            limits: limits)
        #expect(created.error?.code == .unacceptableStatusCode)
        #expect(created.value == "x")

        let anything = ResponseValidation(acceptableStatusCodes: [])
        #expect(!anything.accepts(status: 200))
    }

    @Test func customAcceptableContentTypesReplaceTheSerializers() throws {
        let serializer = TextSerializer()
        let validation = try ResponseValidation(acceptableContentTypes: MediaRangeList(parsing: "text/csv, text/*;q=0"))
        let plain = serializer.serialize(
            response: response(200, contentType: "text/plain"), body: Array("x".utf8), validation: validation,
            limits: limits)
        #expect(plain.error?.code == .unacceptableContentType)
        #expect(serializer.calls.value == 0)
        let csv = serializer.serialize(
            response: response(200, contentType: "text/csv"), body: Array("a,b".utf8), validation: validation,
            limits: limits)
        #expect(csv.error == nil)
        #expect(csv.value == "a,b")
    }

    @Test func zeroWeightInAcceptableTypes() throws {
        var serializer = TextSerializer()
        serializer.acceptableContentTypes = try MediaRangeList(parsing: "text/*, text/html;q=0")
        let html = serializer.serialize(
            response: response(200, contentType: "text/html"), body: Array("<p>".utf8), limits: limits)
        #expect(html.error?.code == .unacceptableContentType)
        #expect(serializer.calls.value == 0)
        let csv = serializer.serialize(
            response: response(200, contentType: "text/csv"), body: Array("a".utf8), limits: limits)
        #expect(csv.error == nil)
    }

    @Test func wholeBodiesOnlyByDefault() {
        #expect(TextSerializer().makeIncrementalReader(contentType: .plainText, limits: limits) == nil)
    }

    @Test func responseContentTypeAccessor() throws {
        #expect(try response(200).contentType == nil)
        #expect(try response(200, contentType: "Application/JSON").contentType == .json)
        let error = #expect(throws: SatchelError.self) { try response(200, contentType: "json").contentType }
        #expect(error?.code == .invalidMediaType)
    }

    @Test func decodedResponseGet() throws {
        let success = DecodedResponse(response: response(200), value: 5, error: nil, serializerName: "x")
        #expect(try success.get() == 5)
        var failure = SatchelError(.unacceptableStatusCode, "status 500")
        failure.decodedValue = "body"
        let failed = DecodedResponse(response: response(500), value: "body", error: failure, serializerName: "x")
        let thrown = #expect(throws: SatchelError.self) { try failed.get() }
        #expect(thrown?.code == .unacceptableStatusCode)
        #expect(thrown?.decodedValue == "body")
    }
}

@Suite("Response validation through the registry")
struct RegistryDecodeTests {
    func makeRegistry(_ serializers: any ResponseSerializer...) -> Registry {
        let registry = Registry()
        for serializer in serializers { registry.register(serializer) }
        return registry
    }

    @Test func decodesWithTheChosenSerializer() throws {
        let text = TextSerializer()
        let registry = makeRegistry(text, FailingSerializer())
        let result = registry.decode(
            response: response(200, contentType: "text/plain;charset=utf-8"), body: Array("hi".utf8))
        #expect(result.value == "hi")
        #expect(result.error == nil)
        #expect(result.serializerName == "text")
        #expect(text.calls.value == 1)
    }

    @Test func unacceptableContentTypeIsNotDecoded() throws {
        let text = TextSerializer()
        let registry = makeRegistry(text)
        let head = response(200, contentType: "application/json")
        let result = registry.decode(response: head, body: Array("{}".utf8))
        let error = try #require(result.error)
        #expect(error.code == .unacceptableContentType)
        #expect(error.response == head)
        #expect(error.body == Array("{}".utf8))
        #expect(result.value == nil)
        #expect(result.serializerName == nil, "no serializer was chosen")
        #expect(text.calls.value == 0)
    }

    @Test func unacceptableBodyIsCapped() throws {
        let registry = makeRegistry(TextSerializer())
        let body = [UInt8](repeating: 0x41, count: 70_000)
        let result = registry.decode(response: response(200, contentType: "image/png"), body: body)
        #expect(result.error?.body?.count == 65_536)
        let noType = registry.decode(response: response(200), body: body)
        #expect(noType.error?.code == .unacceptableContentType)
        #expect(noType.error?.body?.count == 65_536)
    }

    @Test func badStatusDecodesAndReportsBoth() throws {
        let text = TextSerializer()
        let registry = makeRegistry(text)
        let body = [UInt8](repeating: UInt8(ascii: "e"), count: 70_000)
        let result = registry.decode(response: response(500, contentType: "text/plain"), body: body)
        let error = try #require(result.error)
        #expect(error.code == .unacceptableStatusCode)
        #expect(result.value?.stringValue?.count == 70_000)
        #expect(error.decodedValue == result.value)
        #expect(error.response?.status.code == 500)
        #expect(error.body == Array(body.prefix(65_536)))
        #expect(text.calls.value == 1)
    }

    @Test func noContentTypeAndEmptyBody() throws {
        let registry = makeRegistry(TextSerializer())
        let result = registry.decode(response: response(200), body: [])
        #expect(result.error == nil)
        #expect(result.value == nil)
        let bad = registry.decode(response: response(404), body: [])
        #expect(bad.error?.code == .unacceptableStatusCode)
        #expect(bad.value == nil)
    }

    @Test func noContentTypeWithBodyFails() throws {
        let text = TextSerializer()
        let result = makeRegistry(text).decode(response: response(200), body: [0x7B])
        #expect(result.error?.code == .unacceptableContentType)
        #expect(result.value == nil)
        #expect(text.calls.value == 0)
    }

    @Test func emptyBodyOfAnUnregisteredType() throws {
        let registry = makeRegistry(TextSerializer())
        let head = registry.decode(response: response(200, contentType: "text/html"), body: [])
        #expect(head.error == nil)
        #expect(head.value == nil)
        let bad = registry.decode(response: response(500, contentType: "text/html"), body: [])
        #expect(bad.error?.code == .unacceptableStatusCode)
    }

    @Test func malformedContentType() throws {
        let text = TextSerializer()
        let head = response(200, contentType: "text/plain; charset=\"utf-8")
        let result = makeRegistry(text).decode(response: head, body: Array("x".utf8))
        let error = try #require(result.error)
        #expect(error.code == .invalidMediaType)
        #expect(error.offset != nil)
        #expect(error.response == head)
        #expect(error.body == Array("x".utf8))
        #expect(text.calls.value == 0)
    }

    @Test func decodeErrorUnderBadStatus() throws {
        let result = makeRegistry(FailingSerializer()).decode(
            response: response(404, contentType: "application/json"), body: [1, 2])
        let error = try #require(result.error)
        #expect(error.code == .unacceptableStatusCode)
        #expect((error.underlying as? SatchelError)?.code == .syntaxError)
        #expect(result.value == nil)
    }

    @Test func registeredTypesAreTheAcceptableTypes() throws {
        // A serializer registered for other types than its own decodes those types.
        let text = TextSerializer()
        let registry = Registry()
        try registry.register(text, for: MediaRangeList(parsing: "text/csv"))
        let result = registry.decode(response: response(200, contentType: "text/csv"), body: Array("a,b".utf8))
        #expect(result.error == nil)
        #expect(result.value == "a,b")
        let plain = registry.decode(response: response(200, contentType: "text/plain"), body: Array("a".utf8))
        #expect(plain.error?.code == .unacceptableContentType)
    }

    @Test func registryValidationOverrides() throws {
        let text = TextSerializer()
        let registry = Registry()
        try registry.register(text, for: MediaRangeList(parsing: "text/*"))
        registry.validation = try ResponseValidation(
            acceptableStatusCodes: [200..<300, 404..<405], acceptableContentTypes: MediaRangeList(parsing: "text/plain")
        )
        let html = registry.decode(response: response(200, contentType: "text/html"), body: Array("<p>".utf8))
        #expect(html.error?.code == .unacceptableContentType)
        #expect(text.calls.value == 0)
        let notFound = registry.decode(response: response(404, contentType: "text/plain"), body: Array("gone".utf8))
        #expect(notFound.error == nil)
        #expect(notFound.value == "gone")
    }

    @Test func decodeBodyDirectly() throws {
        let registry = makeRegistry(TextSerializer())
        #expect(try registry.decode(Array("hi".utf8), contentType: .plainText) == "hi")
        let error = #expect(throws: SatchelError.self) { try registry.decode([1], contentType: .json) }
        #expect(error?.code == .unacceptableContentType)
    }
}
