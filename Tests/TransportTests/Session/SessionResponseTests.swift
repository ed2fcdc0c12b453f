// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Synchronization
import Testing

@testable import Transport

/// What a session user gets back (``DataResponse`` carrying the registry's ``DecodedResponse``)
/// and `Encodable` parameters, against httpbin under gunicorn on 127.0.0.1.
@Suite(.hangGuard)
struct SessionResponseTests {
    let session: Session

    init() throws {
        session = try SessionSupport.session(try TestServers.shared().httpbin)
    }

    /// The loopback server's `/typed-as` answers a JSON body under the Content-Type asked for.
    @Test(arguments: ["application/octet-stream", ""])
    func theSniffedContentTypeReachesTheSessionUser(type: String) async throws {
        let loopback = try SessionSupport.session(try TestServers.shared().fast)
        let sniffed = try await loopback.get("typed-as", parameters: ["type": .string(type)])
        #expect(sniffed.sniffedContentType?.essence == "application/json")
        #expect(sniffed.decoded?.sniffedContentType == sniffed.sniffedContentType)
        #expect(sniffed.serializerName == "json")
        #expect(sniffed.value?["sniff"] == "me")

        let labelled = try await loopback.get("typed-as", parameters: ["type": "application/json"])
        #expect(labelled.sniffedContentType == nil)
        #expect(labelled.value?["sniff"] == "me")
        #expect(labelled.decoded?.response.status.code == 200)
        #expect(labelled.response == labelled.decoded?.response)
    }

    /// A request that got no response head is a failure, never a `DataResponse`.
    @Test func aTransportFailureIsAFailureWithoutAResponse() async throws {
        let unreachable = try Session(baseURL: "http://127.0.0.1:1/", registry: .standard())
        guard case let .failure(error) = await unreachable.result(for: SessionRequest(.get, "x")) else {
            Issue.record("a refused connection gave a response")
            return
        }
        #expect(error.code == .cannotConnect)
        await #expect(throws: SatchelError.self) { _ = try await unreachable.get("x") }
        let task = unreachable.task(for: SessionRequest(.get, "x"))
        await #expect(throws: SatchelError.self) { _ = try await task.response }
        #expect(await task.result.failure?.code == .cannotConnect)
    }

    @Test func anUnacceptableStatusStillDecodesAndThrowsOnDecode() async throws {
        let response = try await session.result(for: SessionRequest(.get, "status/500")).get()
        #expect(response.decoded?.response.status.code == 500)
        #expect(response.error?.code == .unacceptableStatusCode)
        #expect(response.decoded?.error?.code == .unacceptableStatusCode)
        #expect(throws: SatchelError.self) { _ = try response.decode(String.self) }
    }

    /// A JSON serializer under `application/x-counted` that counts how often it decodes into a
    /// `Value` and into a model.
    struct CountingSerializer: TypedResponseSerializer {
        final class Counts: Sendable {
            let values = Mutex(0)
            let models = Mutex(0)
        }
        let counts = Counts()
        var name: String { "counted" }
        var acceptableContentTypes: MediaRangeList { MediaRangeList(accepting: [MediaType("application/x-counted")!]) }

        func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
            counts.values.withLock { $0 += 1 }
            return try JSONResponseSerializer().decode(body, contentType: nil, limits: limits)
        }

        func decode<T: Decodable>(
            _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
        ) throws(SatchelError) -> T? {
            counts.models.withLock { $0 += 1 }
            return try JSONResponseSerializer().decode(type, from: body, contentType: nil, limits: limits)
        }
    }

    struct Sniff: Decodable, Equatable {
        var sniff: String
    }

    @Test func aValidatedBodyIsDecodedWhenAskedForAndIntoTheModelAlone() async throws {
        let registry = Registry.standard()
        let counting = CountingSerializer()
        _ = registry.register(counting)
        let loopback = try Session(baseURL: try TestServers.shared().fast.absoluteString, registry: registry)
        let response = try await loopback.get("typed-as", parameters: ["type": "application/x-counted"])
        #expect(counting.counts.values.withLock { $0 } == 0 && counting.counts.models.withLock { $0 } == 0)
        #expect(try response.decode(Sniff.self) == Sniff(sniff: "me"))
        #expect(try response.decode(Sniff.self) == Sniff(sniff: "me"))
        #expect(counting.counts.models.withLock { $0 } == 2)
        #expect(counting.counts.values.withLock { $0 } == 0, "decoding into a model built no Value")
        // The Value is built once, on first use, and shared by the response's copies.
        let copy = response
        #expect(response.value?["sniff"] == "me")
        #expect(copy.value?["sniff"] == "me")
        #expect(response.serializerName == "counted")
        #expect(response.error == nil)
        #expect(counting.counts.values.withLock { $0 } == 1)
        // Copies read from many tasks at once: the Value is still built once.
        let shared = try await loopback.get("typed-as", parameters: ["type": "application/x-counted"])
        await withTaskGroup(of: Value?.self) { group in
            for _ in 0..<16 { group.addTask { shared.value } }
            for await value in group { #expect(value?["sniff"] == "me") }
        }
        #expect(counting.counts.values.withLock { $0 } == 2)
        // A body that fails validation is decoded at once, to travel with the error.
        let refused = try await loopback.result(
            for: SessionRequest(.get, "typed-as", parameters: ["type": "application/x-unknown", "body": "?"])
        ).get()
        #expect(refused.failure?.code == .unacceptableContentType)
        guard case .decoded = refused.state else {
            Issue.record("a refused body is decoded at once: \(refused.state)")
            return
        }
    }

    @Test(arguments: ["application/json", "application/x-plist", "application/xml"])
    func aMalformedBodyFailsWhereItIsDecoded(type: String) async throws {
        let loopback = try SessionSupport.session(try TestServers.shared().fast)
        let text = type == "application/json" ? #"{"sniff": tru"# : "<plist><dict><key>sniff</key>"
        // `get` validates (status, Content-Type) and returns; the body is read when asked for.
        let response = try await loopback.get("typed-as", parameters: ["type": .string(type), "body": .string(text)])
        let error = #expect(throws: SatchelError.self) { _ = try response.decode(Sniff.self) }
        #expect(error?.code == .truncatedInput || error?.code == .syntaxError, "\(type): \(String(describing: error))")
        #expect(error?.response?.status.code == 200)
        #expect(error?.body == Array(text.utf8))
        #expect(response.value == nil)
        #expect(response.error?.code == error?.code)
        #expect(throws: SatchelError.self) { _ = try response.get() }
    }

    struct Item: Codable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
    }

    struct Echo: Decodable {
        var json: [Item]
    }

    /// A large body is collected whole, like a small one, and decoded by the same typed decoder
    /// on the caller's task, not as it arrives on the engine thread.
    @Test func aLargeBodyIsDecodedLikeASmallOne() async throws {
        let json = try SessionSupport.session(
            try TestServers.shared().httpbin, requestSerializer: JSONRequestSerializer())
        // httpbin echoes the body twice (as text and as JSON): over 1 MiB.
        let items = (0..<12_000).map { Item(id: $0, name: "item \($0) é", tags: ["t\($0 % 7)", "x"]) }
        let large = try await json.post("anything", parameters: items)
        #expect(large.body.count > 1 << 20, "collected whole")
        guard case .deferred = large.state else {
            Issue.record("a validated JSON body waits for its typed decoder: \(large.state)")
            return
        }
        #expect(try large.decode(Echo.self).json == items)
        let small = try await json.post("anything", parameters: Array(items.prefix(3)))
        guard case .deferred = small.state else {
            Issue.record("\(small.state)")
            return
        }
        #expect(try small.decode(Echo.self).json == Array(items.prefix(3)))
    }

    struct User: Decodable {
        var id: Int
    }

    /// A decoding error names the URL, the Content-Type and the serializer that read the body;
    /// a status error names the URL.
    @Test func decodingAndStatusErrorsSayWhere() async throws {
        let loopback = try SessionSupport.session(try TestServers.shared().fast)
        let html = try await loopback.get(
            "typed-as", parameters: ["type": "text/html", "body": #"{"id":1}"#, "repeat": "1"])
        let misread = try #require(throws: SatchelError.self) { try html.decode(User.self) }
        #expect(misread.code == .typeMismatch, "\(misread)")
        #expect(misread.message.hasPrefix(html.url + ": "), "\(misread)")
        #expect(
            misread.message.contains(
                "(the body, Content-Type text/html, was read by the \(html.serializerName ?? "?") serializer)"),
            "\(misread)")
        let missing = try await loopback.result(
            for: SessionRequest(.get, "retry?key=\(UUID().uuidString)&fail=1&status=404")
        ).get()
        #expect(missing.error?.code == .unacceptableStatusCode)
        #expect(
            missing.error?.message.hasPrefix(missing.url + ": status 404") == true,
            "\(String(describing: missing.error))")
    }

    struct Catalog: Decodable {
        struct Entry: Decodable, Equatable {
            var id: Int
            var name: String
        }
        var entry: [Entry]
    }

    /// XML maps into models its own way (XMLCoder's), for a large chunked body as for a small one.
    @Test func aLargeXMLBodyMapsAsXML() async throws {
        let loopback = try SessionSupport.session(try TestServers.shared().fast)
        func catalog(repeat count: Int) async throws -> DataResponse {
            try await loopback.get(
                "typed-as",
                parameters: [
                    "type": "application/xml", "head": "<catalog>", "tail": "</catalog>",
                    "body": #"<entry id="4"><name>four</name></entry>"#, "repeat": .string(String(count)),
                    "chunked": "1",
                ])
        }
        let large = try await catalog(repeat: 30_000)
        #expect(large.body.count > 1 << 20 && large.response.headerFields[.contentLength] == nil)
        let entries = try large.decode(Catalog.self).entry
        #expect(entries.count == 30_000 && entries.allSatisfy { $0 == Catalog.Entry(id: 4, name: "four") })
        // A model the document does not fit: the XML mapping's error, with its key path and the response.
        struct Misfit: Decodable { var entry: [Int] }
        let misfit = try #require(throws: SatchelError.self) { try large.decode(Misfit.self) }
        #expect(misfit.code == .typeMismatch && misfit.keyPath?.hasPrefix("$.entry") == true, "\(misfit)")
        #expect(misfit.response?.status.code == 200)
        let small = try await catalog(repeat: 2)
        #expect(!small.body.isEmpty)
        #expect(
            try small.decode(Catalog.self).entry == [Catalog.Entry(id: 4, name: "four")] + [
                Catalog.Entry(id: 4, name: "four")
            ])
    }

    struct Search: Encodable {
        var q: String
        var page: Int
        var tags: [String]
        var exact: Bool
    }

    @Test func encodableParametersGoWhereValueParametersGo() async throws {
        let search = Search(q: "a b", page: 2, tags: ["x", "y"], exact: true)
        let asValue: Value = ["q": "a b", "page": 2, "tags": ["x", "y"], "exact": true]

        let viaEncodable = try await session.get("get", parameters: search)
        let viaValue = try await session.get("get", parameters: asValue)
        #expect(viaEncodable.url == viaValue.url)
        #expect(viaEncodable.value?["args"]?["tags[]"]?.arrayValue?.compactMap(\.stringValue) == ["x", "y"])
        #expect(viaEncodable.value?["args"]?["exact"]?.stringValue == "1")

        let posted = try await session.post("post", parameters: search)
        #expect(posted.value?["form"]?["q"]?.stringValue == "a b")
        #expect(posted.value?["form"]?["page"]?.stringValue == "2")
        for method in ["put", "patch", "delete"] {
            let response: DataResponse
            switch method {
            case "put": response = try await session.put(method, parameters: search)
            case "patch": response = try await session.patch(method, parameters: search)
            default: response = try await session.delete(method, parameters: search)
            }
            let echoed = method == "delete" ? response.value?["args"] : response.value?["form"]
            #expect(echoed?["q"]?.stringValue == "a b", "\(method)")
        }
    }

    /// A value that cannot be encoded (a non-finite double in a form) is an error, not a request.
    @Test func unencodableParametersAreAnErrorBeforeSending() async throws {
        struct Odd: Encodable { var ratio: Double }
        await #expect(throws: SatchelError.self) { _ = try await session.post("post", parameters: Odd(ratio: .nan)) }
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        let error = await #expect(throws: SatchelError.self) { _ = try await session.get("get", parameters: Nothing()) }
        #expect(error?.code == .unencodableValue)
    }
}
