import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// What a session user gets back (``DataResponse`` carrying the registry's ``DecodedResponse``)
/// and `Encodable` parameters, against httpbin under gunicorn on 127.0.0.1.
@Suite(.timeLimit(.minutes(1)))
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

    @Test func aTransportFailureHasNoDecodedResponse() async throws {
        let unreachable = try Session(baseURL: "http://127.0.0.1:1/", registry: .standard())
        let response = await unreachable.response(for: SessionRequest(.get, "x"))
        #expect(response.decoded == nil)
        #expect(response.error?.code == .cannotConnect)
        #expect(throws: SatchelError.self) { _ = try response.decode([String: String].self) }
    }

    @Test func anUnacceptableStatusStillDecodesAndThrowsOnDecode() async throws {
        let response = await session.response(for: SessionRequest(.get, "status/500"))
        #expect(response.decoded?.response.status.code == 500)
        #expect(response.error?.code == .unacceptableStatusCode)
        #expect(response.decoded?.error?.code == .unacceptableStatusCode)
        #expect(throws: SatchelError.self) { _ = try response.decode(String.self) }
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
