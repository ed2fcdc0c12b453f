// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// HTTP/2 against a real nginx in front of the fast server: the version each setting gets, one
/// connection for 64 concurrent requests (counted in nginx's access log, which names each
/// request's connection), streamed uploads and downloads, a resumed download and a cancelled
/// one, all over HTTP/2.
@Suite(.hangGuard)
struct HTTPVersionTests {
    let servers: TestServers
    let nginx: NginxProcess

    init() throws {
        servers = try TestServers.shared()
        nginx = try NginxProcess()
    }

    func session(_ base: URL, _ version: HTTPVersionPolicy = .http2WhenOffered) throws -> Session {
        let authority = servers.certificates.caA.path
        return try SessionSupport.session(base) {
            $0.httpVersion = version
            $0.securityPolicy = .certificateAuthorities(path: authority)
        }
    }

    @Test func eachSettingGetsItsVersion() async throws {
        #expect(try await session(nginx.tls).get("echo-headers").metrics.httpVersion == "2")
        #expect(try await session(nginx.tls, .http1_1).get("echo-headers").metrics.httpVersion == "1.1")
        #expect(try await session(nginx.h2c, .http2PriorKnowledge).get("echo-headers").metrics.httpVersion == "2")
        #expect(try await session(nginx.plain).get("echo-headers").metrics.httpVersion == "1.1")
        // Prior knowledge to a server that speaks HTTP/1.1 only: a clear failure, no response.
        let refused = await (try session(servers.fast, .http2PriorKnowledge))
            .result(for: SessionRequest(.get, "echo-headers"))
        #expect(refused.failure != nil && refused.response == nil)
    }

    /// 64 requests at once: one connection over HTTP/2 (all 64 are streams of it), several over
    /// HTTP/1.1. nginx's `$connection` counts the connections. Each body comes in two slices
    /// 20 ms apart, so the requests overlap however the tasks are scheduled (a request alone
    /// would be driven by its caller and over before the next one starts).
    @Test(arguments: [HTTPVersionPolicy.http2WhenOffered, .http1_1])
    func concurrentRequestsShareOneConnectionOverHTTP2(version: HTTPVersionPolicy) async throws {
        let session = try session(nginx.tls, version)
        let marker = UUID().uuidString
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let path = "large/2048?slice=1024&pace_ms=20&\(marker)=\(index)"
                    let response = try await session.result(for: SessionRequest(.get, path)).get()
                    #expect(response.body.count == 2048)
                }
            }
            try await group.waitForAll()
        }
        let (connections, requests) = try nginx.connections(forRequestsContaining: marker)
        #expect(requests == 64)
        if version == .http1_1 {
            #expect(connections.count > 1, "\(connections.count) connections")
        } else {
            #expect(connections.count == 1, "\(connections.count) connections")
        }
    }

    /// A body written while it is sent, and a 16 MiB download, each streamed over HTTP/2.
    @Test func streamedUploadsAndDownloads() async throws {
        let session = try session(nginx.tls)
        let lines = (0..<500).map { "line \($0)\n" }
        let chunks = BodyChunks { write in
            for line in lines { try await write(Array(line.utf8)) }
        }
        let ingested = try await session.upload(
            .chunks(chunks, contentType: .plainText), to: "ingest?key=\(UUID().uuidString)")
        #expect(ingested.value?["lines"] == 500)
        #expect(ingested.value?["bytes"] == .integer(Int64(lines.joined().utf8.count)))
        #expect(ingested.metrics.httpVersion == "2")

        var received = 0
        let expected = SessionSupport.largeBytes(0..<(16 << 20))
        var matches = true
        let body = try await session.bytes(for: SessionRequest(.get, "large/\(16 << 20)"))
        #expect(body.response.status.code == 200)
        for try await chunk in body {
            matches = matches && Array(expected[received..<(received + chunk.count)]) == chunk
            received += chunk.count
        }
        #expect(received == 16 << 20 && matches)
    }

    /// A download whose body is cut off after each MiB (the upstream closes; nginx resets the
    /// stream) resumes over HTTP/2 with Range requests, a MiB further each time, until the
    /// file is whole, byte for byte.
    @Test func aDownloadResumesOverHTTP2() async throws {
        let session = try session(nginx.tls)
        let destination = SessionSupport.temporaryPath("h2-resume.bin")
        defer { unlink(destination) }
        defer { unlink(destination + ".part") }
        let size = 4 << 20
        let request = SessionRequest(.get, "large/\(size)?etag=\(UUID().uuidString)&cut=\(1 << 20)")
        var outcomes: [Result<DownloadResponse, SatchelError>] = []
        repeat {
            outcomes.append(await session.downloadResponse(for: request, to: destination, resume: true))
        } while outcomes.last?.error != nil && outcomes.count < 8
        #expect(outcomes.count == 4, "\(outcomes.map { String(describing: $0.error) })")
        #expect(outcomes.first?.error != nil)
        #expect(outcomes.last?.error == nil)
        #expect(outcomes.last?.response?.resumedFrom == Int64(3 << 20))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == SessionSupport.largeBytes(0..<size))
    }

    /// A slow download cancelled mid-body ends with `cancelled`; the connection stays and the
    /// next request goes on it (one connection in nginx's log for both).
    @Test func cancellationResetsTheStreamNotTheConnection() async throws {
        let session = try session(nginx.tls)
        let marker = UUID().uuidString
        let holder = Mutex<Task<Result<DataResponse, SatchelError>, Never>?>(nil)
        // 8 MiB in 16 KiB slices 50 ms apart: about 25 s; the first bytes cancel it (from the
        // progress report itself, so however late this test's own task runs).
        var request = SessionRequest(.get, "large/\(8 << 20)?slice=16384&pace_ms=50&\(marker)=1")
        request.progress = { progress in
            if progress.downloadedBytes > 0 { holder.withLock { $0?.cancel() } }
        }
        let task = Task { await session.result(for: request) }
        holder.withLock { $0 = task }
        let cancelled = await task.value
        #expect(cancelled.failure?.code == .cancelled, "\(String(describing: cancelled.failure))")
        let next = try await session.get("echo-headers?\(marker)=2")
        #expect(next.metrics.httpVersion == "2")
        #expect(next.metrics.reusedConnection)
        let deadline = ContinuousClock.now + .seconds(60)  // a guard, not a speed limit
        var logged = try nginx.connections(forRequestsContaining: marker)
        while logged.requests < 2, ContinuousClock.now < deadline {  // the cancelled one is logged when nginx ends it
            try await Task.sleep(for: .milliseconds(20))
            logged = try nginx.connections(forRequestsContaining: marker)
        }
        #expect(logged.connections.count == 1, "\(logged)")
    }
}
