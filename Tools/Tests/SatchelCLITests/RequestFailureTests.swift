// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// Every failure class of `satchel request`: its exit code, one line on standard error, nothing
/// on standard output.
@Suite struct RequestFailureTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    /// Runs and checks the failure shape; returns standard error.
    @discardableResult
    func expectFailure(
        _ arguments: [String], status: Int32, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try CommandRunner.run(["request"] + arguments)
        #expect(result.status == status, "\(arguments): \(result.errorOutput)", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, sourceLocation: sourceLocation)
        #expect(result.errorOutput.hasPrefix("satchel: "), sourceLocation: sourceLocation)
        #expect(
            result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result.errorOutput)", sourceLocation: sourceLocation
        )
        return result.errorOutput
    }

    @Test func badInputExits64() throws {
        let url = "\(servers.httpbin)/post"
        try expectFailure(["POST", url, "no-separator"], status: 64)
        try expectFailure(["POST", url, "=value"], status: 64)
        try expectFailure(["POST", url, "n:={bad"], status: 64)
        try expectFailure(["POST", url, "--form", "n:=1"], status: 64)
        try expectFailure(["POST", url, "--json", "f@/etc/hostname"], status: 64)
        try expectFailure(["GET", url, "f@/etc/hostname"], status: 64)
        try expectFailure(["POST", url, "Bad Header:x"], status: 64)
        try expectFailure(["B@D", url], status: 64)
        try expectFailure(["GET", "ftp://example.com/x"], status: 64)
        try expectFailure(["GET", url, "--pin-sha256", "not-base64"], status: 64)
        try expectFailure(["GET", url, "--unknown-flag"], status: 64)
        try expectFailure(["GET", url, "--json", "--form"], status: 64)
        try expectFailure(["GET", url, "--auth", "nocolon"], status: 64)
        try expectFailure(["GET", "\(servers.httpbin)/get", "--pin-sha256", servers.pins.good], status: 64)
    }

    @Test func unreadableFilesExit66() throws {
        let missing = "/nonexistent/satchel-\(UUID().uuidString)"
        try expectFailure(["POST", "\(servers.httpbin)/post", "f@\(missing)"], status: 66)
        try expectFailure(["POST", "\(servers.httpbin)/post", "f=@\(missing)"], status: 66)
        try expectFailure(["POST", "\(servers.httpbin)/post", "f@/tmp"], status: 66)
        try expectFailure(["GET", "\(servers.httpbin)/get", "--cacert", missing], status: 66)
    }

    @Test func limitsExit68AndUnwritableOutputExits74() throws {
        let stderr = try expectFailure(
            ["GET", "\(servers.httpbin)/bytes/5000", "--raw", "--max-body-bytes", "1000"], status: 68)
        #expect(stderr.contains("maxBodyBytes"))
        try expectFailure(["GET", "\(servers.httpbin)/json", "--max-depth", "1"], status: 68)
        try expectFailure(["GET", "\(servers.httpbin)/json", "--output", "/nonexistent/satchel/out.json"], status: 74)
    }

    @Test func unreachableHostsExit6And7() throws {
        let stderr = try expectFailure(["GET", "http://127.0.0.1:1/"], status: 7)
        #expect(stderr.contains("cannotConnect"))
        try expectFailure(["GET", "http://no-such-host.invalid/"], status: 6)
    }

    @Test func timeoutsExit28() throws {
        try expectFailure(["GET", "\(servers.httpbin)/delay/5", "--timeout", "0.5"], status: 28)
    }

    @Test func undecodableBodiesExit65() throws {
        // httpbin's /stream/2 is two JSON documents, one a line, under application/json.
        let stderr = try expectFailure(["GET", "\(servers.httpbin)/stream/2"], status: 65)
        #expect(stderr.contains("syntaxError"))
        // A Content-Type that does not parse (httpbin adds its own to the one asked for).
        try expectFailure(["GET", "\(servers.httpbin)/response-headers?Content-Type=application/xml"], status: 64)
    }

    @Test func tlsFailuresExit35Or60() throws {
        let caA = servers.certificates.caA.path
        let ok = try CommandRunner.run([
            "request", "GET", "\(servers.httpbinTLS)/get", "--cacert", caA, "--pin-sha256",
            "sha256//" + servers.pins.good,
        ])
        #expect(ok.status == 0, "\(ok.errorOutput)")
        let insecure = try CommandRunner.run(["request", "GET", "\(servers.expiredTLS)/get", "--insecure"])
        #expect(insecure.status == 0, "\(insecure.errorOutput)")
        try expectFailure(["GET", "\(servers.httpbinTLS)/get"], status: 60)
        try expectFailure(["GET", "\(servers.httpbinTLS)/get", "--cacert", servers.certificates.caB.path], status: 60)
        try expectFailure(
            ["GET", "\(servers.httpbinTLS)/get", "--cacert", caA, "--pin-sha256", servers.pins.caB], status: 60)
        try expectFailure(["GET", "\(servers.expiredTLS)/get", "--cacert", caA], status: 60)
        try expectFailure(["GET", "\(servers.wrongHostTLS)/get", "--cacert", caA], status: 60)
        // Plain HTTP spoken to a TLS port: the handshake itself fails.
        let plainPort = try #require(servers.httpbin.port)
        try expectFailure(["GET", "https://127.0.0.1:\(plainPort)/get", "--insecure"], status: 35)
    }
}
