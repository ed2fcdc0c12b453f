// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The curl command-line tool as a peer: one process per transfer, as a user would run it. Each
/// run checks curl's exit status, the HTTP status and the byte count it reports (`-w`).
struct CurlCommand: Sendable {
    /// The server, with a trailing slash.
    let server: URL

    /// `curl -s -o PATH URL`; `path` may be `/dev/null`. Returns the bytes received.
    func download(_ name: String, to path: String) throws -> Int {
        let url = server.appendingPathComponent(name).absoluteString
        try expect(
            run(["-s", "-o", path, "-w", "%{http_code} %{size_download}", url]),
            status: 200, bytes: TransportBenchmarks.bigSize, what: "curl -o \(path) \(url)")
        return TransportBenchmarks.bigSize
    }

    /// `curl -s -T FILE URL` (a PUT with `Content-Length`). Returns the status.
    func upload(file path: String, to name: String) throws -> Int {
        let url = server.appendingPathComponent(name).absoluteString
        try expect(
            run(["-s", "-o", "/dev/null", "-T", path, "-w", "%{http_code} %{size_upload}", url]),
            status: 204, bytes: TransportBenchmarks.bigSize, what: "curl -T \(path) \(url)")
        return 204
    }

    private func expect(_ output: String, status: Int, bytes: Int, what: String) throws {
        guard output == "\(status) \(bytes)" else {
            throw BenchmarkFailure.guardFailed("\(what) reported \"\(output)\", not \"\(status) \(bytes)\"")
        }
    }

    /// Runs curl with `arguments` and returns its standard output; fails on a non-zero exit.
    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure.guardFailed(
                "curl \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The first `curl` on `PATH`.
    static let executable: String = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/curl") {
            return "\(folder)/curl"
        }
        return "/usr/bin/curl"
    }()
}
