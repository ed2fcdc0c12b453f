// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import SatchelTestSupport
import XCTest

@testable import SatchelServer

/// The built `satchel serve` binary: URL line, a real request, SIGINT → exit 0; a taken port.
final class ServeCommandTests: XCTestCase {
    /// The `satchel` executable beside the test bundle.
    static let executable = BuiltProducts.satchel

    /// Reads lines from `handle` until one starts with `prefix` (or the stream ends).
    private static func line(startingWith prefix: String, from handle: FileHandle, count: Int = 1) -> [String] {
        var buffer = Data()
        var lines: [String] = []
        while lines.count < count {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
        }
        return lines
    }

    func testServePrintsItsURLServesAndStopsOnSIGINT() async throws {
        for tls in [false, true] {
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["serve", "--port", "0"] + (tls ? ["--tls"] : [])
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let lines = Self.line(startingWith: "Serving on ", from: output.fileHandleForReading, count: tls ? 3 : 1)
            let first = try XCTUnwrap(lines.first)
            XCTAssertTrue(first.hasPrefix("Serving on http\(tls ? "s" : "")://127.0.0.1:"), first)
            let url = String(first.dropFirst("Serving on ".count))
            var policy = SecurityPolicy.default
            if tls {
                XCTAssertEqual(lines.count, 3)
                let caPath = String(try XCTUnwrap(lines[1].split(separator: " ").last))
                XCTAssertTrue(lines[1].hasPrefix("CA certificate: "))
                XCTAssertTrue(lines[2].hasPrefix("Public-key pin: sha256//"))
                policy = .certificateAuthorities(path: caPath)
            }
            var configuration = SessionConfiguration()
            configuration.securityPolicy = policy
            let response = try await (try Session(baseURL: url, configuration: configuration)).fetch("json")
            XCTAssertNil(response.error, "\(String(describing: response.error))")
            XCTAssertEqual(response.value?["fixture"]?["name"], "Satchel")

            kill(process.processIdentifier, SIGINT)
            // A safety net, not a timing check: a server that ignores SIGINT must not hang the suite.
            for _ in 0..<300 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                XCTFail("satchel serve ignored SIGINT")
            }
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .exit)
            XCTAssertEqual(process.terminationStatus, 0)
            if tls, let caPath = lines[1].split(separator: " ").last {
                XCTAssertFalse(
                    FileManager.default.fileExists(atPath: String(caPath)), "the CA file outlived the server")
            }
        }
    }

    func testATakenPortExitsSixtyNineWithOneLine() async throws {
        try await ServerTestSupport.withServer { server in
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["serve", "--port", String(server.port)]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 69)
            XCTAssertEqual(message, "satchel: cannot listen on 127.0.0.1:\(server.port): address already in use\n")
            XCTAssertEqual(output.fileHandleForReading.readDataToEndOfFile(), Data())
        }
    }
}
