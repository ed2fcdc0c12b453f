// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

@Suite("Form response serializer and registry")
struct FormResponseTests {
    private static let formType = "application/x-www-form-urlencoded; charset=utf-8"

    private func response(_ status: HTTPResponse.Status = .ok, contentType: String? = formType) -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: status, headerFields: fields)
    }

    private func registry(limits: Limits = .default) -> Registry {
        let registry = Registry(limits: limits)
        registry.register(FormRequestSerializer() as any RequestSerializer)
        registry.register(FormResponseSerializer() as any ResponseSerializer)
        return registry
    }

    // MARK: - Serializer

    @Test("name and acceptable content types")
    func identity() throws {
        let serializer = FormResponseSerializer()
        #expect(serializer.name == "form")
        #expect(serializer.acceptableContentTypes.accepts(try MediaType(parsing: Self.formType)))
        #expect(!serializer.acceptableContentTypes.accepts(.json))
    }

    @Test("an empty body is no value")
    func emptyBody() throws {
        #expect(try FormResponseSerializer().decode([], contentType: .formURLEncoded, limits: .default) == nil)
    }

    @Test("a body decodes to an object")
    func decodesBody() throws {
        let value = try FormResponseSerializer().decode(
            Array("oauth_token=ab%2Fc&oauth_callback_confirmed=true".utf8), contentType: .formURLEncoded,
            limits: .default)
        #expect(value == ["oauth_token": "ab/c", "oauth_callback_confirmed": "true"])
    }

    @Test("options are settable")
    func options() throws {
        var serializer = FormResponseSerializer()
        serializer.options.duplicateKeys = .collectIntoArray
        serializer.options.parsesNestedKeys = false
        let value = try serializer.decode(Array("a=1&a=2&b[c]=3".utf8), contentType: nil, limits: .default)
        #expect(value == ["a": ["1", "2"], "b[c]": "3"])
    }

    @Test("limits are obeyed")
    func limits() {
        let error = #expect(throws: SatchelError.self) {
            try FormResponseSerializer().decode(Array("a=1&b=2".utf8), contentType: nil, limits: Limits(maxPairs: 1))
        }
        #expect(error?.limit == "maxPairs")
        #expect(error?.offset == 4)
    }

    @Test("validation rejects other content types without decoding")
    func unacceptableContentType() {
        let result = FormResponseSerializer().serialize(
            response: response(contentType: "application/json"), body: Array("a=1".utf8), limits: .default)
        #expect(result.value == nil)
        #expect(result.error?.code == .unacceptableContentType)
    }

    // MARK: - Registry

    @Test("the registry decodes a form response")
    func registryDecode() throws {
        let result = registry().decode(response: response(), body: Array("a=1&b[]=x&b[]=y&c[d]=%C3%A9".utf8))
        #expect(result.error == nil)
        #expect(result.serializerName == "form")
        #expect(result.value == ["a": "1", "b": ["x", "y"], "c": ["d": "é"]])
    }

    @Test("the registry decodes an empty form response to no value")
    func registryEmpty() {
        let result = registry().decode(response: response(), body: [])
        #expect(result.error == nil)
        #expect(result.value == nil)
        #expect(result.serializerName == "form")
    }

    @Test("a bad status still decodes the form body")
    func registryBadStatus() {
        let result = registry().decode(response: response(.badRequest), body: Array("error=invalid_grant".utf8))
        #expect(result.error?.code == .unacceptableStatusCode)
        #expect(result.value == ["error": "invalid_grant"])
        #expect(result.error?.decodedValue == ["error": "invalid_grant"])
    }

    @Test("a decoding failure through the registry carries the offset and the response")
    func registryDecodeFailure() {
        let result = registry().decode(response: response(), body: Array("a=1&b=%zz".utf8))
        #expect(result.value == nil)
        #expect(result.error?.code == .syntaxError)
        #expect(result.error?.offset == 6)
        #expect(result.error?.response?.status == .ok)
    }

    @Test("the registry's limits reach the form decoder")
    func registryLimits() {
        let result = registry(limits: Limits(maxDepth: 1)).decode(response: response(), body: Array("a[b][c]=1".utf8))
        #expect(result.error?.code == .limitExceeded)
        #expect(result.error?.limit == "maxDepth")
    }

    @Test("the registry encodes form bodies")
    func registryEncode() throws {
        let (body, contentType) = try registry().encode(["b": ["x", "y"], "a": "1 2"], as: .formURLEncoded)
        #expect(String(decoding: body, as: UTF8.self) == "a=1%202&b%5B%5D=x&b%5B%5D=y")
        #expect(contentType == .formURLEncoded)
        #expect(try registry().decode(body, contentType: .formURLEncoded) == ["a": "1 2", "b": ["x", "y"]])
    }

    @Test("the registry serializes requests with the form serializer")
    func registrySerialize() throws {
        let registry = registry()
        let get = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/s")
        let query = try registry.serialize(["q": "a&b"], into: get, as: .formURLEncoded)
        #expect(query.request.path == "/s?q=a%26b")
        let post = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/s")
        let body = try registry.serialize(["q": "a&b"], into: post, as: .formURLEncoded)
        #expect(body.body == Array("q=a%26b".utf8))
        #expect(body.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
    }
}
