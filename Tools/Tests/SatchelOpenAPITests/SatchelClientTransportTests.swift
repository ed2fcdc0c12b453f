// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Satchel
import SatchelOpenAPI
import SatchelServer
import SatchelTestSupport
import Synchronization
import Testing

/// The client swift-openapi-generator made from OpenAPI/openapi.yaml (Generated/), sending
/// through `SatchelClientTransport` to `satchel serve`'s fixture server, started in process on
/// 127.0.0.1 for each test.
@Suite(.hangGuard)
struct SatchelClientTransportTests {
    /// Runs `body` with a client of a fresh fixture server, stopping the server afterwards.
    func withClient(
        transport: SatchelClientTransport = SatchelClientTransport(),
        _ body: (Client, FixtureServer) async throws -> Void
    ) async throws {
        let server = try await FixtureServer.start(FixtureServerConfiguration())
        do {
            try await body(Client(serverURL: URL(string: server.baseURL)!, transport: transport), server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// `count` bytes of the fixture server's `/bytes` pattern (byte i is i mod 251).
    static func pattern(_ range: Range<Int>) -> [UInt8] {
        range.map { UInt8($0 % 251) }
    }

    @Test func aJSONResponseIsDecodedByTheGeneratedTypes() async throws {
        try await withClient { client, _ in
            let document = try await client.getFixture().ok.body.json
            #expect(document.fixture.name == "Satchel")
            #expect(document.fixture.greeting == "Grüße, 世界")
            #expect(document.fixture.formats == ["json", "xml", "plist"])
            #expect(document.fixture.owner.id == 42)
        }
    }

    @Test func aJSONBodyAndAQueryAreSent() async throws {
        try await withClient { client, _ in
            let echoed = try await client.echoJSON(
                query: .init(tag: "t 1&2"), body: .json(.init(name: "Ann", count: 3))
            )
            .ok.body.json
            #expect(echoed.method == "POST")
            #expect(echoed.path == "/echo")
            #expect(echoed.query?.additionalProperties["tag"] == "t 1&2")
            #expect(echoed.body == .init(name: "Ann", count: 3))
        }
    }

    @Test func aMultipartUploadArrivesPartByPart() async throws {
        try await withClient { client, _ in
            let file = Self.pattern(0..<300_000)
            let parts: MultipartBody<Operations.upload.Input.Body.multipartFormPayload> = [
                .note(.init(payload: .init(body: "hello, parts"))),
                .file(.init(payload: .init(body: HTTPBody(file)), filename: "data.bin")),
            ]
            let echoed = try await client.upload(body: .multipartForm(parts)).ok.body.json
            let received = echoed.body._dollar_multipart
            #expect(received.map(\.name) == ["note", "file"])
            #expect(received.last?.filename == "data.bin")
            #expect(received.last?.contentType == "application/octet-stream")
            #expect(received.last?.size == file.count)
            #expect(received.first?.size == "hello, parts".utf8.count)
        }
    }

    @Test func aBodyOfUnknownLengthIsStreamedUp() async throws {
        try await withClient { client, _ in
            let (chunks, input) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
            let producer = Task {
                for start in stride(from: 0, to: 2_000_000, by: 100_000) {
                    input.yield(Self.pattern(start..<start + 100_000)[...])
                }
                input.finish()
            }
            let echoed = try await client.uploadStream(body: .binary(HTTPBody(chunks, length: .unknown)))
            await producer.value
            #expect(try echoed.ok.body.json.method == "PUT")
        }
    }

    @Test func aDownloadIsStreamedAsItArrives() async throws {
        try await withClient { client, _ in
            let count = 6_000_000
            let body = try await client.download(path: .init(count: Int64(count))).ok.body.binary
            #expect(body.length == .known(Int64(count)))
            var received: [UInt8] = []
            var chunks = 0
            for try await chunk in body {
                received += chunk
                chunks += 1
            }
            #expect(received.count == count)
            #expect(received == Self.pattern(0..<count))
            #expect(chunks > 10)
        }
    }

    @Test func errorStatusesAreResponsesWithProblemDetails() async throws {
        try await withClient { client, _ in
            let notFound = try await client.status(path: .init(code: 404))
            let problem = try notFound.notFound.body.application_problem_plus_json
            #expect(problem.status == 404)
            #expect(problem.title == "Not Found")
            guard case let .default(statusCode, other) = try await client.status(path: .init(code: 503)) else {
                Issue.record("503 was not the default response")
                return
            }
            #expect(statusCode == 503)
            #expect(try other.body.application_problem_plus_json.status == 503)
            #expect(try await client.status(path: .init(code: 200)) == .ok(.init()))
        }
    }

    @Test func theDefaultSessionRetriesNoStatus() async throws {
        let policy = try SatchelClientTransport.defaultSession.configuration.retryPolicy
        // Transport failures of idempotent calls are still retried, as RetryPolicy.alamofire does.
        #expect(policy.retryableStatusCodes.isEmpty && policy.retryLimit == RetryPolicy.alamofire.retryLimit)
        // A session of one's own keeps its policy: with .alamofire, 503 is retried twice, three
        // attempts in all.
        var configuration = SessionConfiguration()
        configuration.retryPolicy = .alamofire
        configuration.retryPolicy.exponentialBackoffScale = 0.01
        let monitor = AttemptCounter()
        configuration.eventMonitors = [monitor]
        let retrying = SatchelClientTransport(session: try Session(configuration: configuration))
        try await withClient(transport: retrying) { client, _ in
            _ = try await client.status(path: .init(code: 503))
            #expect(monitor.attempts.withLock { $0 } == 3)
        }
    }

    @Test func theSessionsPinIsCheckedForEveryCall() async throws {
        let server = try await FixtureServer.start(FixtureServerConfiguration(tls: true))
        do {
            let identity = try #require(server.tlsIdentity)
            func client(pin: String) throws -> Client {
                var configuration = SessionConfiguration()
                configuration.securityPolicy = .publicKeys([pin])
                configuration.securityPolicy.allowInvalidCertificates = true  // the pin alone: curl -k --pinnedpubkey
                let transport = SatchelClientTransport(session: try Session(configuration: configuration))
                return Client(serverURL: URL(string: server.baseURL)!, transport: transport)
            }
            let pinned = try await client(pin: identity.publicKeySHA256).getFixture().ok.body.json
            #expect(pinned.fixture.name == "Satchel")
            do {
                _ = try await client(pin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=").getFixture()
                Issue.record("a server whose key is not the pinned one answered")
            } catch let error as ClientError {
                #expect((error.underlyingError as? SatchelError)?.code == .tlsFailure)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func aRequestWhosePathIsNotAbsoluteIsRefusedBeforeItIsSent() async throws {
        let transport = SatchelClientTransport()
        for path in ["json", "", "http://elsewhere/json"] {
            do {
                _ = try await transport.send(
                    HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), body: nil,
                    baseURL: URL(string: "http://127.0.0.1:1/v1")!, operationID: "hostile")
                Issue.record("the path \"\(path)\" was sent")
            } catch let error as SatchelError {
                #expect(error.code == .invalidArgument)
                #expect(error.message.contains("cannot make a URL of http://127.0.0.1:1/v1"))
            }
        }
    }

    @Test func aTransportFailureIsAClientErrorWithSatchelsCode() async throws {
        let client = Client(serverURL: URL(string: "http://127.0.0.1:1/")!, transport: SatchelClientTransport())
        do {
            _ = try await client.getFixture()
            Issue.record("a refused connection returned a response")
        } catch let error as ClientError {
            #expect(error.operationID == "getFixture")
            #expect((error.underlyingError as? SatchelError)?.code == .cannotConnect)
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheDownload() async throws {
        try await withClient { client, _ in
            let task = Task {
                let body = try await client.download(path: .init(count: 1 << 30)).ok.body.binary
                var received = 0
                for try await chunk in body {
                    received += chunk.count
                    if received > 1_000_000 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return received
            }
            let result = await task.result
            #expect(throws: (any Error).self) { try result.get() }
            if case let .failure(error) = result {
                #expect((error as? SatchelError)?.code == .cancelled)
            }
            // The server and the session go on: the next call works.
            let after = try await client.getFixture().ok.body.json
            #expect(after.fixture.count == 3)
        }
    }

    @Test func aBodyDroppedUnreadEndsItsTransfer() async throws {
        let monitor = AttemptCounter()
        var configuration = SessionConfiguration()
        configuration.eventMonitors = [monitor]
        let transport = SatchelClientTransport(session: try Session(configuration: configuration))
        try await withClient(transport: transport) { client, _ in
            do {
                _ = try await client.download(path: .init(count: 1 << 30)).ok.body.binary
            }
            // The 1 GiB transfer was cancelled when its body went: it completes (with an error)
            // instead of staying paused with a full buffer.
            for _ in 0..<100 where monitor.completions.withLock({ $0 }).isEmpty {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(monitor.completions.withLock { $0 } == ["cancelled"])
        }
    }

    @Test func aCallWaitsForConnectivityOnlyWhileItsHostIsUnreachable() async throws {
        let patient = SatchelClientTransport(configuration: .init(waitsForConnectivity: .milliseconds(600)))
        try await withClient(transport: patient) { client, _ in
            // 127.0.0.1 is reachable: the call goes at once.
            let document = try await client.getFixture().ok.body.json
            #expect(document.fixture.name == "Satchel")
        }
        // A name that never resolves stays unreachable: the call is not sent, and says why.
        let client = Client(serverURL: URL(string: "http://satchel-test.invalid/")!, transport: patient)
        do {
            _ = try await client.getFixture()
            Issue.record("a call to an unreachable host returned a response")
        } catch let error as ClientError {
            let underlying = error.underlyingError as? SatchelError
            #expect(underlying?.code == .cannotConnect)
            #expect(underlying?.message.contains("satchel-test.invalid did not become reachable within") == true)
        }
    }

    @Test func aResponseWithoutABodyIsNotCancelled() async throws {
        let monitor = AttemptCounter()
        var configuration = SessionConfiguration()
        configuration.eventMonitors = [monitor]
        let transport = SatchelClientTransport(session: try Session(configuration: configuration))
        try await withClient(transport: transport) { client, _ in
            // The document gives 200 no content, and the server sends Content-Length: 0: the
            // generated client never reads the body, and the transfer ends on its own.
            for _ in 0..<2 {
                let output = try await client.status(path: .init(code: 200))
                #expect(output == .ok(.init()))
            }
            for _ in 0..<100 where monitor.completions.withLock({ $0 }).count < 2 {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(monitor.completions.withLock { $0 } == ["ok", "ok"])
        }
    }

    @Test func aWholeCallTimeoutEndsASlowCall() async throws {
        let transport = SatchelClientTransport(
            session: try SatchelClientTransport.defaultSession, timeout: .milliseconds(300))
        try await withClient(transport: transport) { client, _ in
            do {
                let body = try await client.download(path: .init(count: 1 << 30)).ok.body.binary
                var received = 0
                for try await chunk in body {
                    received += chunk.count
                    try await Task.sleep(for: .milliseconds(20))
                }
                Issue.record("a 1 GiB body read slowly finished within 300 ms")
            } catch {
                // On a loaded machine the timeout can pass before the head arrives: the call then
                // fails with it (wrapped by the OpenAPI runtime) instead of the body.
                let timeout = error as? SatchelError ?? (error as? ClientError)?.underlyingError as? SatchelError
                #expect(timeout?.code == .timedOut, "\(error)")
            }
        }
    }
}

/// Counts a session's attempts and records how its requests ended.
final class AttemptCounter: EventMonitor {
    let attempts = Mutex(0)
    let completions = Mutex<[String]>([])

    func requestDidStart(_ request: HTTPRequest, url: String) {
        attempts.withLock { $0 += 1 }
    }

    func requestDidComplete(_ request: HTTPRequest, url: String, response: HTTPResponse?, error: SatchelError?) {
        completions.withLock { $0.append(error?.code.name ?? "ok") }
    }
}
