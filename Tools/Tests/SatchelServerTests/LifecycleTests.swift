// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import XCTest

@testable import SatchelServer

/// Start, stop and wait: graceful, idempotent, and the port is free again afterwards.
final class LifecycleTests: XCTestCase {
    func testStopLetsARequestInFlightFinish() async throws {
        let server = try await FixtureServer.start(FixtureServerConfiguration())
        let session = try ServerTestSupport.session(server)
        let slow = Task { try await session.fetch("delay/0.5") }
        // Stop once the request has reached the server: the echo it is waiting to send
        // must still arrive whole.
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(20))
            if await Self.isConnected(to: server) { break }
        }
        await server.stop()
        let response = try await slow.value
        XCTAssertEqual(response.response.status.code, 200, "\(String(describing: response.error))")
        XCTAssertEqual(response.value?["path"], "/delay/0.5")
        try await server.waitUntilStopped()
        await server.stop()

        // The port is free again: a new server can take it.
        let again = try await FixtureServer.start(FixtureServerConfiguration(port: server.port))
        XCTAssertEqual(again.port, server.port)
        await again.stop()
        do {
            _ = try await session.fetch("json")
            XCTFail("a stopped server answered")
        } catch {
            XCTAssertEqual(error.code, .cannotConnect)
        }
    }

    func testBaseURLBracketsIPv6Hosts() async throws {
        let server: FixtureServer
        do {
            server = try await FixtureServer.start(FixtureServerConfiguration(host: "::1"))
        } catch FixtureServerError.cannotListen {
            throw XCTSkip("no IPv6 loopback here")
        }
        XCTAssertEqual(server.baseURL, "http://[::1]:\(server.port)")
        let response = try await (try ServerTestSupport.session(server)).fetch("json")
        XCTAssertEqual(response.value, FixtureDocument.value)
        await server.stop()
    }

    /// Whether the server has an established connection (read from /proc/net/tcp: state 01
    /// on the server's port as the local side).
    private static func isConnected(to server: FixtureServer) async -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return true }
        let port = String(format: ":%04X", server.port)
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1].hasSuffix(port) && fields[3] == "01"
        }
    }
}
