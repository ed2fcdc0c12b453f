// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel
import SatchelTestSupport
import XCTest

@testable import SatchelServer

/// Starts a fixture server for one test and stops it afterwards.
enum ServerTestSupport {
    /// Runs `body` against a fresh server (plain HTTP unless `tls`), stopping it afterwards.
    static func withServer(
        _ configuration: FixtureServerConfiguration = FixtureServerConfiguration(),
        _ body: (FixtureServer) async throws -> Void
    ) async throws {
        let server = try await FixtureServer.start(configuration)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// A session on the server's base URL; the raw bytes of every body stay in the response.
    static func session(
        _ server: FixtureServer, policy: SecurityPolicy = .default, redirects: Bool = true
    ) throws -> Session {
        var configuration = SessionConfiguration()
        configuration.securityPolicy = policy
        configuration.retryPolicy = RetryPolicy.disabled
        if !redirects { configuration.redirectPolicy = RedirectPolicy.none }
        return try Session(baseURL: server.baseURL, configuration: configuration)
    }

    /// The response body as JSON text decoded to a Value (through the registry's JSON serializer).
    static func json(_ response: DataResponse, file: StaticString = #filePath, line: UInt = #line) throws -> Value {
        XCTAssertNil(response.error, "\(response.error.map(String.init(describing:)) ?? "")", file: file, line: line)
        return try XCTUnwrap(response.value, file: file, line: line)
    }

    /// Runs `script` with the `.venv` Python (VenvPython), `input` on standard input; returns
    /// standard output, trimmed.
    static func runPython(
        _ script: String, input: [UInt8], file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try VenvPython.run(script, input: input)
        XCTAssertEqual(result.status, 0, "python failed", file: file, line: line)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension Session {
    /// GET `path`; an unacceptable status is in the response's `error`.
    /// - Throws: the failure when no response arrived.
    func fetch(_ path: String) async throws(SatchelError) -> DataResponse {
        try await result(for: SessionRequest(.get, path)).get()
    }
}
