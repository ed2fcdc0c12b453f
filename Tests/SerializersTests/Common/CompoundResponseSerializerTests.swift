// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// The ordered compound serializer: AFNetworking's semantics, without its raw-bytes fallback.
@Suite struct CompoundResponseSerializerTests {
    let compound = CompoundResponseSerializer([JSONResponseSerializer(), FormResponseSerializer()])

    func response(_ status: Int, _ contentType: String?) -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    @Test func theFirstMemberThatYieldsAValueWins() {
        let result = compound.serialize(
            response: response(200, "application/x-www-form-urlencoded"), body: Array("a=1".utf8), limits: .default)
        #expect(result.value == ["a": "1"])
        #expect(result.error == nil)
        #expect(result.serializerName == "form")
    }

    @Test func aBadStatusWithADecodableBodyKeepsValueAndErrorWithTheEarlierFailures() {
        let result = compound.serialize(
            response: response(500, "application/x-www-form-urlencoded"), body: Array("a=1".utf8), limits: .default)
        #expect(result.value == ["a": "1"])
        #expect(result.error?.code == .unacceptableStatusCode)
        #expect(result.error?.attempts.map(\.serializerName) == ["json"])
        #expect(result.error?.attempts.first?.error.code == .unacceptableContentType)
    }

    @Test func whenNoMemberYieldsTheDecodingFailureIsReportedNotTheBytes() {
        let result = compound.serialize(
            response: response(200, "application/json"), body: Array("{\"a\":".utf8), limits: .default)
        #expect(result.value == nil)
        let error = result.error
        #expect(error?.code == .truncatedInput)
        #expect(error?.message.hasPrefix("the json serializer failed") == true)
        #expect(error?.attempts.map(\.serializerName) == ["json", "form"])
        #expect(error?.body == Array("{\"a\":".utf8))
        #expect(error?.description.contains("[tried json: truncatedInput, form: unacceptableContentType]") == true)
    }

    @Test func anUnacceptedTypeNamesEveryMember() {
        let result = compound.serialize(
            response: response(200, "image/gif"), body: [0x47, 0x49, 0x46], limits: .default)
        #expect(result.value == nil)
        #expect(result.error?.code == .unacceptableContentType)
        #expect(result.error?.message == "none of the serializers (json, form) accepts Content-Type image/gif")
        #expect(result.error?.attempts.count == 2)
    }

    @Test func anEmptyBodyIsNoValueWithoutError() {
        let result = compound.serialize(response: response(204, nil), body: [], limits: .default)
        #expect(result.value == nil)
        #expect(result.error == nil)
    }

    @Test func decodeSkipsMembersThatDoNotAcceptTheType() throws {
        #expect(
            try compound.decode(
                Array("a=1&b=2".utf8), contentType: MediaType(parsing: "application/x-www-form-urlencoded"),
                limits: .default) == ["a": "1", "b": "2"])
        let error = satchelError {
            _ = try compound.decode(Array("x".utf8), contentType: MediaType(parsing: "text/csv"), limits: .default)
        }
        #expect(error?.code == .unacceptableContentType)
        #expect(error?.attempts.count == 2)
    }

    @Test func acceptableContentTypesAreTheMembersInOrder() {
        let types = compound.acceptableContentTypes.ranges.map(\.mediaType.essence)
        #expect(types.first == "application/json")
        #expect(types.last == "application/x-www-form-urlencoded")
    }
}
