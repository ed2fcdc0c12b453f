// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// Connection limits, the idle lifetime and the cache, counted in nginx's access log (which
/// names each request's connection); host overrides; rate limits measured as bytes over a
/// window of the transfer; Expect: 100-continue.
@Suite(.hangGuard)
struct ConnectionOptionsTests {
    let servers: TestServers
    let nginx: NginxProcess

    init() throws {
        servers = try TestServers.shared()
        nginx = try NginxProcess.shared()
    }

    /// `count` concurrent GETs through `session` to nginx over HTTP/1.1; the connections they used.
    func connections(_ session: Session, count: Int) async throws -> Set<Int> {
        let marker = UUID().uuidString
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    let response = try await session.result(
                        for: SessionRequest(.get, "large/65536?slice=4096&pace_ms=5&\(marker)=\(index)")
                    ).get()
                    #expect(response.body.count == 65536)
                }
            }
            try await group.waitForAll()
        }
        return try nginx.connections(forRequestsContaining: marker).connections
    }

    @Test func connectionsPerHostAndInTotalAreCapped() async throws {
        let capped = try SessionSupport.session(nginx.plain) { $0.maximumConnectionsPerHost = 2 }
        let perHost = try await connections(capped, count: 16)
        #expect(perHost.count <= 2 && !perHost.isEmpty, "\(perHost)")
        let one = try SessionSupport.session(nginx.plain) { $0.maximumConnections = 1 }
        #expect(try await connections(one, count: 8).count == 1)
        let free = try SessionSupport.session(nginx.plain)
        #expect(try await connections(free, count: 16).count > 2)
    }

    /// An idle connection past its lifetime is not reused; with the default lifetime, the same
    /// pause does not end it.
    @Test func anIdleConnectionPastItsLifetimeIsClosed() async throws {
        let short = try SessionSupport.session(nginx.plain) { $0.idleConnectionLifetime = .seconds(1) }
        let usual = try SessionSupport.session(nginx.plain)
        _ = try await short.get("echo-headers")
        _ = try await usual.get("echo-headers")
        try await Task.sleep(for: .milliseconds(2100))
        #expect(try await short.get("echo-headers").metrics.reusedConnection == false)
        #expect(try await usual.get("echo-headers").metrics.reusedConnection)
    }

    /// A cache of one connection: a request to another origin takes the place of the first's.
    /// libcurl picks the connection to close by its last use in whole milliseconds (a tie goes
    /// to the first in its hash), so the other origin answers 20 ms late: requests driven on the
    /// caller's thread can otherwise end within the same millisecond.
    @Test func aSmallCacheClosesTheOldestConnection() async throws {
        let small = try SessionSupport.session(nginx.plain) { $0.connectionCacheSize = 1 }
        let other = SessionRequest(
            .get, servers.fast.appendingPathComponent("large/10").absoluteString + "?delay_ms=20")
        _ = try await small.get("echo-headers")
        #expect(try await small.result(for: other).get().response.status.code == 200)
        #expect(try await small.get("echo-headers").metrics.reusedConnection == false)
        let roomy = try SessionSupport.session(nginx.plain)
        _ = try await roomy.get("echo-headers")
        #expect(try await roomy.result(for: other).get().response.status.code == 200)
        #expect(try await roomy.get("echo-headers").metrics.reusedConnection)
    }

    /// --resolve and --connect-to: the URL's host is kept (Host, and TLS's name check), the
    /// connection goes where the override says.
    @Test func hostOverridesSendConnectionsElsewhere() async throws {
        let port = servers.fast.port ?? 0
        let session = try SessionSupport.session(URL(string: "http://satchel.test:\(port)")!) {
            $0.hostOverrides = [try! HostOverride(resolve: "satchel.test:\(port):127.0.0.1")]
        }
        let resolved = try await session.get("echo-headers")
        #expect(resolved.value?["headers"]?["host"] == .string("satchel.test:\(port)"))

        let connecting = try SessionSupport.session(URL(string: "http://api.satchel.test")!) {
            $0.hostOverrides = [try! HostOverride(connectTo: "api.satchel.test:80:127.0.0.1:\(port)")]
        }
        #expect(try await connecting.get("echo-headers").value?["headers"]?["host"] == "api.satchel.test")

        // TLS: the certificate is checked against the URL's name (localhost), not the address.
        let tlsPort = servers.httpbinTLS.port ?? 0
        let authority = servers.certificates.caA.path
        let tls = try SessionSupport.session(URL(string: "https://localhost:\(tlsPort)")!) {
            $0.securityPolicy = .certificateAuthorities(path: authority)
            $0.hostOverrides = [.resolve("localhost", port: tlsPort, to: ["127.0.0.1"])]
        }
        #expect(try await tls.get("get").response.status.code == 200)
        let wrongName = try SessionSupport.session(URL(string: "https://wrong.satchel.test:\(tlsPort)")!) {
            $0.securityPolicy = .certificateAuthorities(path: authority)
            $0.hostOverrides = [.resolve("wrong.satchel.test", port: tlsPort, to: ["127.0.0.1"])]
        }
        #expect(await wrongName.result(for: SessionRequest(.get, "get")).failure?.code == .tlsFailure)
    }

    @Test(arguments: ["nohost", "h:0:1.2.3.4", "h:70000:1.2.3.4", ":80:1.2.3.4", "h:80:"])
    func aMalformedOverrideIsRefused(text: String) {
        #expect(throws: SatchelError.self) { try HostOverride(resolve: text) }
    }

    @Test(arguments: ["h:80:t", "h:80:t:x", "h:x:t:80", "h:80::80", "h:80:t:70000", ":80:t:80"])
    func aMalformedConnectToIsRefused(text: String) {
        #expect { try HostOverride(connectTo: text) } throws: { ($0 as? SatchelError)?.code == .invalidArgument }
    }

    @Test func connectToParsesCurlsForm() throws {
        #expect(
            try HostOverride(connectTo: "a.test:443:b.test:8443")
                == .connect("a.test", port: 443, to: "b.test", port: 8443))
    }

    /// A download limited to 256 KiB/s: its average rate between its first and its last
    /// progress report stays within a generous margin of the limit (unlimited, 1 MiB over
    /// loopback takes milliseconds). A busy machine can only lower that rate, so the bound holds
    /// however loaded the run is.
    @Test func aDownloadIsThrottled() async throws {
        let limit = 256 * 1024
        let session = try SessionSupport.session(servers.fast) {
            $0.rateLimit = RateLimit(download: limit)
            $0.progressInterval = .milliseconds(10)
        }
        let samples = Mutex<[(ContinuousClock.Instant, Int64)]>([])
        var request = SessionRequest(.get, "large/\(1 << 20)")
        request.progress = { progress in samples.withLock { $0.append((.now, progress.downloadedBytes)) } }
        let response = try await session.result(for: request).get()  // octet-stream: the body, undecoded
        #expect(response.body.count == 1 << 20)
        let rate = try Self.averageRate(samples.withLock { $0 })
        #expect(rate <= Double(limit) * 2, "\(Int(rate)) bytes a second")
        // A request's own limit wins: unlimited, the same body is not held back that way.
        request.rateLimit = RateLimit(download: 64 * 1024 * 1024)
        #expect(try await session.result(for: request).get().body.count == 1 << 20)
    }

    /// An upload limited to 256 KiB/s, measured the same way on the bytes sent; the server
    /// gets every byte.
    @Test func anUploadIsThrottled() async throws {
        let limit = 256 * 1024
        let session = try SessionSupport.session(servers.fast) {
            $0.rateLimit = RateLimit(upload: limit)
            $0.progressInterval = .milliseconds(10)
        }
        let samples = Mutex<[(ContinuousClock.Instant, Int64)]>([])
        var request = SessionRequest(.post, "discard")
        request.body = .bytes([UInt8](repeating: 1, count: 768 * 1024), contentType: .octetStream)
        request.progress = { progress in samples.withLock { $0.append((.now, progress.uploadedBytes)) } }
        let response = try await session.send(request)
        #expect(response.value?["bytes"] == .integer(768 * 1024))
        let rate = try Self.averageRate(samples.withLock { $0 })
        #expect(rate <= Double(limit) * 2, "\(Int(rate)) bytes a second")
    }

    /// Bytes a second between the first and the last of a transfer's progress reports (which
    /// must have moved bytes: a transfer that reported nothing in between is refused).
    private static func averageRate(_ samples: [(ContinuousClock.Instant, Int64)]) throws -> Double {
        let first = try #require(samples.first)
        let last = try #require(samples.last)
        try #require(last.1 > first.1, "no bytes moved between the first and the last report")
        let seconds = (last.0 - first.0) / .seconds(1)
        return Double(last.1 - first.1) / max(seconds, 1e-9)
    }

    /// With sendsExpectContinue, a 2 MiB upload asks first; without, it never does.
    @Test func expectContinueIsAnOptIn() async throws {
        let body = RequestBody.bytes([UInt8](repeating: 7, count: 2 << 20), contentType: .octetStream)
        let asking = try SessionSupport.session(servers.fast) { $0.sendsExpectContinue = true }
        let asked = try await asking.upload(body, to: "echo-headers")
        #expect(asked.value?["headers"]?["expect"] == "100-continue")
        let plain = try SessionSupport.session(servers.fast)
        #expect(try await plain.upload(body, to: "echo-headers").value?["headers"]?["expect"] == nil)
    }

    @Test func badLimitsAreRefused() {
        #expect(throws: SatchelError.self) {
            try SessionSupport.session(servers.fast) { $0.maximumConnectionsPerHost = 0 }
        }
        #expect(throws: SatchelError.self) { try SessionSupport.session(servers.fast) { $0.rateLimit.download = -1 } }
    }
}
