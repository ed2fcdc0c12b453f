// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --resolve`, `--connect-to` and `--limit-rate`.
@Suite(.hangGuard)
struct RequestConnectionTests {
    let port: Int

    init() throws {
        port = try TestServers.shared().fast.port ?? 0
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(["request", "GET"] + arguments + ["--color", "never"])
    }

    @Test func overridesKeepTheURLsHost() throws {
        let resolved = try run([
            "http://satchel.test:\(port)/echo-headers", "--resolve", "satchel.test:\(port):127.0.0.1",
        ])
        #expect(resolved.status == 0, "\(resolved.errorOutput)")
        #expect(resolved.output.contains("\"host\": \"satchel.test:\(port)\""), "\(resolved.output)")
        let connected = try run([
            "http://api.satchel.test/echo-headers", "--connect-to", "api.satchel.test:80:127.0.0.1:\(port)",
        ])
        #expect(connected.status == 0, "\(connected.errorOutput)")
        #expect(connected.output.contains("\"host\": \"api.satchel.test\""))
    }

    @Test func aLimitedDownloadArrivesWhole() throws {
        let result = try CommandRunner.run([
            "request", "GET", "http://127.0.0.1:\(port)/large/300000", "--limit-rate", "1m", "--raw",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.outputBytes.count == 300_000)
    }

    @Test(arguments: [
        ["--limit-rate", "0"], ["--limit-rate", "10x"], ["--limit-rate", "-5k"], ["--resolve", "nohost"],
        ["--connect-to", "a:80:b"], ["--resolve", "h:99999:1.2.3.4"],
    ])
    func badValuesAreUsageErrors(arguments: [String]) throws {
        let result = try run(["http://127.0.0.1:\(port)/echo-headers"] + arguments)
        #expect(result.status == 64, "\(result.errorOutput)")
    }
}
