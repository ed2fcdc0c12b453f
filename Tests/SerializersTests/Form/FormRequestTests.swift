// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

private struct FormClosureFailure: Error {}

@Suite("Form request serializer")
struct FormRequestTests {
    private static let parameters: Value = ["b": "x y", "a": [1, 2]]
    private static let encoded = "a%5B%5D=1&a%5B%5D=2&b=x%20y"

    private func request(_ method: HTTPRequest.Method, path: String? = "/items") -> HTTPRequest {
        HTTPRequest(method: method, scheme: "https", authority: "example.com", path: path)
    }

    // MARK: - Identity

    @Test("name and content type")
    func identity() {
        let serializer = FormRequestSerializer()
        #expect(serializer.name == "form")
        #expect(serializer.contentType == MediaType(type: "application", subtype: "x-www-form-urlencoded"))
    }

    // MARK: - Placement

    @Test(
        "GET, HEAD and DELETE put parameters in the query",
        arguments: [
            HTTPRequest.Method.get, .head, .delete,
        ])
    func queryMethods(method: HTTPRequest.Method) throws {
        let serialized = try FormRequestSerializer().serialize(Self.parameters, into: request(method))
        #expect(serialized.request.path == "/items?\(Self.encoded)")
        #expect(serialized.body == nil)
        #expect(serialized.request.headerFields[.contentType] == nil)
    }

    @Test(
        "POST, PUT and PATCH put parameters in the body",
        arguments: [
            HTTPRequest.Method.post, .put, .patch,
        ])
    func bodyMethods(method: HTTPRequest.Method) throws {
        let serialized = try FormRequestSerializer().serialize(Self.parameters, into: request(method))
        #expect(serialized.request.path == "/items")
        #expect(serialized.body == Array(Self.encoded.utf8))
        #expect(serialized.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
    }

    @Test(
        "an existing query is continued with '&'",
        arguments: [
            ("/items?x=1", "/items?x=1&a=1"),
            ("/items?", "/items?a=1"),
            ("/items?x=1&", "/items?x=1&a=1"),
            ("/items#top", "/items?a=1#top"),
            ("/items?x=1#top", "/items?x=1&a=1#top"),
        ])
    func existingQuery(path: String, expected: String) throws {
        let serialized = try FormRequestSerializer().serialize(["a": 1], into: request(.get, path: path))
        #expect(serialized.request.path == expected)
    }

    @Test(
        "appending a query to a path",
        arguments: [
            ("/s", "/s?a=2"),
            ("/s?x=1", "/s?x=1&a=2"),
            ("/s?", "/s?a=2"),
            ("/s?x=1&", "/s?x=1&a=2"),
            ("/s#f", "/s?a=2#f"),
            ("/s?x#f?g", "/s?x&a=2#f?g"),
            ("", "?a=2"),
        ])
    func appendingQuery(path: String, expected: String) {
        #expect(FormRequestSerializer.appending(query: "a=2", to: path) == expected)
    }

    @Test("parameters that encode to nothing leave the path alone")
    func emptyQuery() throws {
        for parameters: Value in [[:], ["a": []], ["a": [:]]] {
            let serialized = try FormRequestSerializer().serialize(parameters, into: request(.get, path: "/items?x=1"))
            #expect(serialized.request.path == "/items?x=1")
            #expect(serialized.body == nil)
        }
    }

    @Test("parameters that encode to nothing still give a body (AFNetworking)")
    func emptyBody() throws {
        let serialized = try FormRequestSerializer().serialize([:], into: request(.post))
        #expect(serialized.body == [])
        #expect(serialized.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
    }

    @Test(
        "no parameters: nil and null leave query, body and Content-Type alone",
        arguments: [
            HTTPRequest.Method.get, .post,
        ])
    func noParameters(method: HTTPRequest.Method) throws {
        for parameters: Value? in [nil, .null] {
            let serialized = try FormRequestSerializer().serialize(parameters, into: request(method))
            #expect(serialized.request.path == "/items")
            #expect(serialized.body == nil)
            #expect(serialized.request.headerFields[.contentType] == nil)
            #expect(serialized.request.headerFields[.userAgent] != nil)
        }
    }

    @Test("an existing Content-Type is kept")
    func existingContentType() throws {
        var head = request(.post)
        head.headerFields[.contentType] = "application/x-www-form-urlencoded; charset=utf-8"
        let serialized = try FormRequestSerializer().serialize(["a": 1], into: head)
        #expect(
            serialized.request.headerFields[values: .contentType] == [
                "application/x-www-form-urlencoded; charset=utf-8"
            ])
        #expect(serialized.body == Array("a=1".utf8))
    }

    @Test(
        "placement override",
        arguments: [
            (FormRequestSerializer.Placement.query, HTTPRequest.Method.post, true),
            (.query, .put, true),
            (.body, .get, false),
            (.body, .delete, false),
            (.automatic, .get, true),
            (.automatic, .post, false),
        ])
    func placement(placement: FormRequestSerializer.Placement, method: HTTPRequest.Method, inQuery: Bool) throws {
        var serializer = FormRequestSerializer()
        serializer.options.placement = placement
        #expect(serializer.encodesParametersInQuery(for: method) == inQuery)
        let serialized = try serializer.serialize(["a": 1], into: request(method))
        #expect(serialized.request.path == (inQuery ? "/items?a=1" : "/items"))
        #expect(serialized.body == (inQuery ? nil : Array("a=1".utf8)))
    }

    @Test("methodsEncodingParametersInURI decides automatic placement")
    func methodsInURI() throws {
        var serializer = FormRequestSerializer()
        serializer.options.methodsEncodingParametersInURI = [.get, .options]
        let delete = try serializer.serialize(["a": 1], into: request(.delete))
        #expect(delete.request.path == "/items")
        #expect(delete.body == Array("a=1".utf8))
        let options = try serializer.serialize(["a": 1], into: request(.options))
        #expect(options.request.path == "/items?a=1")
        #expect(options.body == nil)
    }

    @Test("the default methods in the URI are GET, HEAD and DELETE")
    func defaultMethodsInURI() {
        #expect(FormRequestSerializer.Options().methodsEncodingParametersInURI == [.get, .head, .delete])
    }

    @Test("query placement without a path is an invalid argument")
    func queryWithoutPath() {
        let connect = HTTPRequest(method: .connect, scheme: nil, authority: "example.com:443", path: nil)
        var serializer = FormRequestSerializer()
        serializer.options.placement = .query
        let error = #expect(throws: SatchelError.self) { try serializer.serialize(["a": 1], into: connect) }
        #expect(error?.code == .invalidArgument)
    }

    // MARK: - Options

    @Test("encoding options are reachable on the serializer's options")
    func encodingOptions() throws {
        var serializer = FormRequestSerializer()
        serializer.options.arrayStyle = .indexed
        serializer.options.boolStyle = .literal
        serializer.options.spaceEncoding = .plus
        serializer.options.sortsKeys = false
        #expect(serializer.options.encoding.arrayStyle == .indexed)
        let body = try serializer.encodeBody(["z": true, "a": ["x y"]])
        #expect(String(decoding: body, as: UTF8.self) == "z=true&a%5B0%5D=x+y")
    }

    @Test("a custom query string serializer replaces the encoding in query and body")
    func customQueryString() throws {
        var serializer = FormRequestSerializer()
        serializer.options.queryStringSerializer = { parameters in
            "custom=\(parameters["a"]?.int64Value ?? -1)"
        }
        let get = try serializer.serialize(["a": 7], into: request(.get))
        #expect(get.request.path == "/items?custom=7")
        let post = try serializer.serialize(["a": 8], into: request(.post))
        #expect(post.body == Array("custom=8".utf8))
        #expect(post.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(try serializer.queryString(from: ["a": 9]) == "custom=9")
        #expect(try serializer.encodeBody(["a": 10]) == Array("custom=10".utf8))
    }

    @Test("a custom query string serializer may accept any value")
    func customQueryStringAnyValue() throws {
        var serializer = FormRequestSerializer()
        serializer.options.queryStringSerializer = { parameters in
            parameters.arrayValue?.compactMap(\.stringValue).joined(separator: "+") ?? ""
        }
        let serialized = try serializer.serialize(["x", "y"], into: request(.get))
        #expect(serialized.request.path == "/items?x+y")
    }

    @Test("errors from a custom query string serializer")
    func customQueryStringErrors() {
        var serializer = FormRequestSerializer()
        serializer.options.queryStringSerializer = { _ in throw FormClosureFailure() }
        let wrapped = #expect(throws: SatchelError.self) { try serializer.serialize(["a": 1], into: request(.get)) }
        #expect(wrapped?.code == .unencodableValue)
        #expect(wrapped?.underlying is FormClosureFailure)

        serializer.options.queryStringSerializer = { _ in throw SatchelError(.valueNotFound, "missing token") }
        let passed = #expect(throws: SatchelError.self) { try serializer.serialize(["a": 1], into: request(.post)) }
        #expect(passed?.code == .valueNotFound)
        #expect(passed?.message == "missing token")
    }

    @Test("queryString(from:) on the type uses AFNetworking's defaults")
    func staticQueryString() throws {
        #expect(try FormRequestSerializer.queryString(from: Self.parameters) == Self.encoded)
        var serializer = FormRequestSerializer()
        serializer.options.arrayStyle = .noBrackets
        #expect(try serializer.queryString(from: Self.parameters) == "a=1&a=2&b=x%20y")
    }

    @Test("encodeBody rejects parameters that are not an object")
    func encodeBodyRejectsNonObjects() {
        let error = #expect(throws: SatchelError.self) { try FormRequestSerializer().encodeBody(["a", "b"]) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("unencodable values fail serialization with their key path")
    func unencodable() {
        let error = #expect(throws: SatchelError.self) {
            try FormRequestSerializer().serialize(["a": ["b": .double(.nan)]], into: request(.post))
        }
        #expect(error?.code == .unencodableValue)
        #expect(error?.keyPath == "$.a.b")
    }

    // MARK: - Default headers

    @Test("a serialized request carries Accept-Language and User-Agent")
    func defaultHeadersApplied() throws {
        let serialized = try FormRequestSerializer().serialize(["a": 1], into: request(.post))
        let language = DefaultHeaders.acceptLanguage(environment: ProcessInfo.processInfo.environment)
        #expect(serialized.request.headerFields[.acceptLanguage] == language)
        let agent = try #require(serialized.request.headerFields[.userAgent])
        let version = DefaultHeaders.satchelVersion.replacingOccurrences(of: ".", with: #"\."#)
        let pattern = try Regex(#"Satchel/"# + version + #" \(Linux( [^;()]+)?; [A-Za-z0-9_]+\)"#)
        #expect(agent.wholeMatch(of: pattern) != nil, "User-Agent was \(agent)")
        #expect(agent == DefaultHeaders.userAgent)
    }

    @Test("existing headers are not overwritten")
    func defaultHeadersKept() throws {
        var head = request(.get)
        head.headerFields[.userAgent] = "Custom/1.0"
        head.headerFields[.acceptLanguage] = "de"
        let serialized = try FormRequestSerializer().serialize(["a": 1], into: head)
        #expect(serialized.request.headerFields[values: .userAgent] == ["Custom/1.0"])
        #expect(serialized.request.headerFields[values: .acceptLanguage] == ["de"])
    }

    @Test("the serializer's headers property replaces the defaults")
    func customHeaders() throws {
        var serializer = FormRequestSerializer()
        serializer.headers = [.authorization: "Bearer t"]
        let serialized = try serializer.serialize(["a": 1], into: request(.get))
        #expect(serialized.request.headerFields[.authorization] == "Bearer t")
        #expect(serialized.request.headerFields[.userAgent] == nil)
        #expect(FormRequestSerializer().headers == DefaultHeaders.standard)
    }

    @Test(
        "Accept-Language from the POSIX locale variables",
        arguments: [
            ([:], "en"),
            (["LANG": "fr_FR.UTF-8"], "fr-FR"),
            (["LANG": "de_DE@euro"], "de-DE"),
            (["LANG": "C"], "en"),
            (["LANG": "POSIX"], "en"),
            (["LC_ALL": "C.UTF-8"], "en"),
            (["LC_ALL": "es_ES.UTF-8", "LC_MESSAGES": "it_IT.UTF-8", "LANG": "de_DE.UTF-8"], "es-ES"),
            (["LC_MESSAGES": "it_IT.UTF-8", "LANG": "de_DE.UTF-8"], "it-IT"),
            (["LANGUAGE": "fr_CA:fr:en", "LANG": "de_DE.UTF-8"], "fr-CA, fr;q=0.9, en;q=0.8, de-DE;q=0.7"),
            (["LANGUAGE": "en_US:en", "LANG": "en_US.UTF-8"], "en-US, en;q=0.9"),
            (["LANGUAGE": "", "LANG": "pt_BR.UTF-8"], "pt-BR"),
        ] as [([String: String], String)])
    func acceptLanguage(environment: [String: String], expected: String) {
        #expect(DefaultHeaders.acceptLanguage(environment: environment) == expected)
    }

    @Test("Accept-Language lists at most six languages")
    func acceptLanguageCap() {
        let environment = ["LANGUAGE": "en:fr:de:es:it:pt:nl:sv", "LANG": "ja_JP.UTF-8"]
        #expect(
            DefaultHeaders.acceptLanguage(environment: environment)
                == "en, fr;q=0.9, de;q=0.8, es;q=0.7, it;q=0.6, pt;q=0.5")
    }

    @Test("basic authorization (RFC 7617 examples)")
    func basicAuthorization() {
        var fields = HTTPFields()
        fields.setBasicAuthorization(username: "Aladdin", password: "open sesame")
        #expect(fields[.authorization] == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        fields.setBasicAuthorization(username: "test", password: "123\u{A3}")
        #expect(fields[values: .authorization] == ["Basic dGVzdDoxMjPCow=="])
    }
}
