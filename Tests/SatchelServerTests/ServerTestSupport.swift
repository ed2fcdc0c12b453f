import Foundation
import HTTPTypes
import Satchel
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
    static func session(_ server: FixtureServer, policy: SecurityPolicy = .default, redirects: Bool = true) throws -> Session {
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

    /// The `.venv` Python of the repository (scripts/setup), or `nil` with a recorded failure.
    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".venv/bin/python")

    /// Runs `script` with the `.venv` Python, `input` on standard input; returns standard output.
    static func runPython(_ script: String, input: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            XCTFail("\(python.path) is missing: run scripts/setup", file: file, line: line)
            return ""
        }
        let inputURL = FileManager.default.temporaryDirectory.appendingPathComponent("serve-py-\(UUID().uuidString)")
        try Data(input).write(to: inputURL)
        defer { try? FileManager.default.removeItem(at: inputURL) }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script]
        process.standardInput = FileHandle(forReadingAtPath: inputURL.path)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "python failed", file: file, line: line)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension Session {
    /// GET `path` without throwing: a failure is in the response's `error`.
    func fetch(_ path: String) async -> DataResponse {
        await response(for: SessionRequest(.get, path))
    }
}
