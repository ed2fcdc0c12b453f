// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Testing

@Suite("Registry lookup")
struct RegistryLookupTests {
    @Test func emptyRegistry() throws {
        let registry = Registry()
        #expect(registry.responseSerializer(for: .json) == nil)
        #expect(registry.requestSerializer(for: .json) == nil)
        #expect(registry.acceptHeader == "")
        #expect(registry.responseSerializerNames.isEmpty)
    }

    @Test func registerAndUnregister() throws {
        let registry = Registry()
        let registration = registry.register(NamedSerializer("json", "application/json"))
        #expect(registry.responseSerializer(for: .json)?.name == "json")
        #expect(try registry.responseSerializer(for: mediaType("Application/JSON; charset=utf-8"))?.name == "json")
        #expect(registry.responseSerializer(for: .plainText) == nil)
        #expect(registry.unregister(registration))
        #expect(registry.responseSerializer(for: .json) == nil)
        #expect(!registry.unregister(registration), "a second unregister finds nothing")
    }

    @Test func registrationsAreDistinct() {
        let registry = Registry()
        let first = registry.register(NamedSerializer("a", "text/plain"))
        let second = registry.register(NamedSerializer("a", "text/plain"))
        #expect(first != second)
        #expect(registry.unregister(first))
        #expect(registry.responseSerializer(for: .plainText) != nil, "the other registration stays")
    }

    @Test func specificityBeatsPriority() throws {
        let registry = Registry()
        registry.register(NamedSerializer("any", "*/*"), priority: 100)
        registry.register(NamedSerializer("appWildcard", "application/*"), priority: 50)
        registry.register(NamedSerializer("jsonSuffix", "application/*+json"), priority: 10)
        registry.register(NamedSerializer("exact", "application/json"), priority: 0)
        #expect(registry.responseSerializer(for: .json)?.name == "exact")
        #expect(try registry.responseSerializer(for: mediaType("application/vnd.api+json"))?.name == "jsonSuffix")
        #expect(try registry.responseSerializer(for: mediaType("application/xml"))?.name == "appWildcard")
        #expect(try registry.responseSerializer(for: mediaType("image/png"))?.name == "any")
    }

    @Test func parametersMakeARangeMoreSpecific() throws {
        let registry = Registry()
        registry.register(NamedSerializer("utf8", "text/plain;charset=utf-8"))
        registry.register(NamedSerializer("plain", "text/plain"), priority: 10)
        #expect(try registry.responseSerializer(for: mediaType("text/plain; charset=UTF-8"))?.name == "utf8")
        #expect(try registry.responseSerializer(for: mediaType("text/plain; charset=latin1"))?.name == "plain")
    }

    @Test func priorityBreaksTies() {
        let registry = Registry()
        registry.register(NamedSerializer("high", "application/json"), priority: 5)
        registry.register(NamedSerializer("low", "application/json"), priority: 1)
        #expect(registry.responseSerializer(for: .json)?.name == "high")
    }

    @Test func laterRegistrationWinsAmongEquals() {
        let registry = Registry()
        registry.register(NamedSerializer("first", "application/json"))
        let second = registry.register(NamedSerializer("second", "application/json"))
        #expect(registry.responseSerializer(for: .json)?.name == "second")
        registry.unregister(second)
        #expect(registry.responseSerializer(for: .json)?.name == "first")
    }

    @Test func zeroWeightExcludes() throws {
        let registry = Registry()
        registry.register(NamedSerializer("anythingButHTML", "*/*, text/html;q=0"))
        #expect(try registry.responseSerializer(for: mediaType("text/html")) == nil)
        #expect(try registry.responseSerializer(for: mediaType("text/html; charset=utf-8")) == nil)
        #expect(registry.responseSerializer(for: .plainText)?.name == "anythingButHTML")

        registry.register(NamedSerializer("text", "text/*"))
        #expect(try registry.responseSerializer(for: mediaType("text/html"))?.name == "text")
    }

    @Test func zeroWeightOnlyExcludesItsOwnRegistration() throws {
        let registry = Registry()
        registry.register(NamedSerializer("html", "text/html"))
        registry.register(NamedSerializer("noHTML", "text/*, text/html;q=0"), priority: 100)
        #expect(try registry.responseSerializer(for: mediaType("text/html"))?.name == "html")
    }

    @Test func registeredTypesOverrideTheSerializersOwn() throws {
        let registry = Registry()
        try registry.register(TextSerializer(), for: MediaRangeList(parsing: "text/csv"))
        #expect(try registry.responseSerializer(for: mediaType("text/csv"))?.name == "text")
        #expect(registry.responseSerializer(for: .plainText) == nil)
    }

    @Test func responseSerializerNamesByPriority() {
        let registry = Registry()
        registry.register(NamedSerializer("b", "text/plain"), priority: 1)
        registry.register(NamedSerializer("a", "text/plain"), priority: 10)
        registry.register(NamedSerializer("c", "text/plain"), priority: -1)
        #expect(registry.responseSerializerNames == ["a", "b", "c"])
    }

    @Test func limitsAndValidationAreStored() {
        let registry = Registry(
            limits: Limits(maxDepth: 7), validation: ResponseValidation(acceptableStatusCodes: [200..<201]))
        #expect(registry.limits.maxDepth == 7)
        #expect(registry.validation.acceptableStatusCodes == [200..<201])
        registry.limits = Limits(maxDepth: 9)
        registry.validation = ResponseValidation()
        #expect(registry.limits.maxDepth == 9)
        #expect(registry.validation.acceptableStatusCodes == [200..<300])
        #expect(Registry().limits == .default)
    }

    /// The choice per Content-Type is kept, and forgotten whenever the serializers change.
    @Test func aKeptChoiceFollowsRegistrationsAndRemovals() throws {
        let registry = Registry()
        registry.register(NamedSerializer("any", "*/*"), priority: -1)
        registry.register(NamedSerializer("a", "application/json"))
        let json = try mediaType("application/json; charset=utf-8")
        #expect(registry.responseSerializer(for: json)?.name == "a")
        #expect(registry.responseSerializer(for: json)?.name == "a")
        let better = registry.register(NamedSerializer("b", "application/json"), priority: 5)
        #expect(registry.responseSerializer(for: json)?.name == "b")
        registry.unregister(better)
        #expect(registry.responseSerializer(for: json)?.name == "a")
        // More Content-Types than are kept: every answer still right.
        for index in 0..<(Registry.chosenEntriesLimit * 2 + 3) {
            let type = try mediaType("application/json; v=\(index)")
            #expect(registry.responseSerializer(for: type)?.name == "a")
            #expect(registry.responseSerializer(for: try mediaType("image/x-\(index)"))?.name == "any")
        }
        let none = Registry()
        #expect(none.responseSerializer(for: json) == nil)
        #expect(none.responseSerializer(for: json) == nil)
    }
}

@Suite("Registry request serializers")
struct RegistryRequestTests {
    @Test func lookupByContentType() throws {
        let registry = Registry()
        registry.register(CanonicalRequestSerializer("json", .json))
        registry.register(CanonicalRequestSerializer("form", .formURLEncoded))
        #expect(registry.requestSerializer(for: .json)?.name == "json")
        #expect(try registry.requestSerializer(for: mediaType("application/json; charset=utf-8"))?.name == "json")
        #expect(registry.requestSerializer(for: .formURLEncoded)?.name == "form")
        #expect(registry.requestSerializer(for: .plainText) == nil)
        // A pattern finds a serializer that writes a matching type.
        #expect(try registry.requestSerializer(for: mediaType("application/*")) != nil)
        #expect(try registry.requestSerializer(for: mediaType("text/*")) == nil)
    }

    @Test func specificRegistrationBeatsCatchAll() {
        let registry = Registry()
        registry.register(CanonicalRequestSerializer("json", .json))
        registry.register(CanonicalRequestSerializer("raw", .octetStream), for: [.any], priority: 100)
        #expect(registry.requestSerializer(for: .json)?.name == "json")
        #expect(registry.requestSerializer(for: .plainText)?.name == "raw")
    }

    @Test func priorityAndOrderBreakTies() {
        let registry = Registry()
        registry.register(CanonicalRequestSerializer("high", .json), priority: 2)
        registry.register(CanonicalRequestSerializer("low", .json), priority: 1)
        #expect(registry.requestSerializer(for: .json)?.name == "high")
        let later = registry.register(CanonicalRequestSerializer("later", .json), priority: 2)
        #expect(registry.requestSerializer(for: .json)?.name == "later")
        #expect(registry.unregister(later))
        #expect(registry.requestSerializer(for: .json)?.name == "high")
    }

    @Test func encodeAndSerialize() throws {
        let registry = Registry()
        let jsonUTF8 = MediaType.json.setting(parameter: "charset", to: "utf-8")
        registry.register(CanonicalRequestSerializer("json", jsonUTF8))
        let encoded = try registry.encode(["a": 1], as: .json)
        #expect(encoded.body == Array(#"{"a":1}"#.utf8))
        #expect(encoded.contentType == jsonUTF8)

        let request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/")
        let serialized = try registry.serialize(["a": [true]], into: request, as: .json)
        #expect(serialized.body == Array(#"{"a":[true]}"#.utf8))
        #expect(serialized.request.headerFields[.contentType] == "application/json; charset=utf-8")
        #expect(serialized.request.headerFields[.userAgent] != nil)
    }

    @Test func encodeWithoutSerializerFails() throws {
        let registry = Registry()
        let error = #expect(throws: SatchelError.self) { try registry.encode(.null, as: .json) }
        #expect(error?.code == .unacceptableContentType)
        let request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/")
        let second = #expect(throws: SatchelError.self) { try registry.serialize(nil, into: request, as: .json) }
        #expect(second?.code == .unacceptableContentType)
    }
}

@Suite("Registry Accept header")
struct RegistryAcceptHeaderTests {
    @Test func oneShortRangePerSerializerAndNoSuffixPatterns() throws {
        let registry = Registry()
        registry.register(NamedSerializer("xml", "application/xml, text/xml, application/*+xml"))
        registry.register(
            NamedSerializer("json", "application/json, text/json, text/javascript, application/*+json"), priority: 10)
        registry.register(NamedSerializer("image", "image/png, image/jpeg, image/gif, image/svg+xml;q=0"))
        registry.register(NamedSerializer("text", "text/*"), priority: -1)
        let header = registry.acceptHeader
        #expect(header == "application/json, application/xml, image/*, text/*", "highest priority first")
        let list = try MediaRangeList(parsing: header)
        #expect(try list.accepts(mediaType("image/png")) && list.accepts(mediaType("text/json")))
    }

    @Test func aSerializerWhoseFirstTypeIsListedAdvertisesItsNextOne() throws {
        let registry = Registry()
        registry.register(NamedSerializer("a", "application/json"))
        registry.register(NamedSerializer("b", "application/json, text/plain"))
        registry.register(NamedSerializer("c", "text/*, application/json"), priority: 5)
        registry.register(NamedSerializer("d", "text/html"), priority: -1)
        // c first (text/*), then b: application/json (a, registered earlier, ties after it:
        // later registrations win ties), then a: nothing new; d is covered by text/*.
        #expect(registry.acceptHeader == "text/*, application/json")
    }

    @Test func unregisteredTypesDisappear() {
        let registry = Registry()
        let registration = registry.register(NamedSerializer("a", "application/json"))
        registry.register(NamedSerializer("b", "text/plain"))
        registry.unregister(registration)
        #expect(registry.acceptHeader == "text/plain")
    }
}

@Suite("Registry concurrency")
struct RegistryConcurrencyTests {
    @Test func concurrentRegistrationLookupAndRemoval() async throws {
        let registry = Registry()
        registry.register(NamedSerializer("fallback", "*/*"), priority: -1)
        let registrations = await withTaskGroup(of: Registry.Registration.self) { group in
            for index in 0..<1000 {
                group.addTask {
                    let type = MediaType(type: "application", subtype: "x-\(index)")
                    let registration = registry.register(NamedSerializer("s\(index)", type.essence))
                    #expect(registry.responseSerializer(for: type)?.name == "s\(index)")
                    #expect(!registry.acceptHeader.isEmpty)
                    _ = registry.responseSerializerNames
                    if index % 2 == 0 {
                        #expect(registry.unregister(registration))
                        #expect(registry.responseSerializer(for: type)?.name == "fallback")
                    }
                    registry.register(CanonicalRequestSerializer("r\(index)", type))
                    #expect(registry.requestSerializer(for: type)?.name == "r\(index)")
                    return registration
                }
            }
            var all: [Registry.Registration] = []
            for await registration in group { all.append(registration) }
            return all
        }
        #expect(Set(registrations).count == 1000)
        #expect(registry.responseSerializerNames.count == 501)
        for index in 0..<1000 {
            let type = MediaType(type: "application", subtype: "x-\(index)")
            let expected = index % 2 == 0 ? "fallback" : "s\(index)"
            #expect(registry.responseSerializer(for: type)?.name == expected)
        }
        #expect(try MediaRangeList(parsing: registry.acceptHeader).ranges.count == 501)
    }
}
