// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs a program with its output captured in files (no pipes to fill up).
enum Command {
    struct Result {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs `executable` with `arguments`; `environment` entries are added to this process's.
    /// Suspends (rather than blocking a thread of the concurrency pool, which the in-process
    /// servers need) until the process exits.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> Result {
        let (process, outputURL, errorURL) = try prepare(executable, arguments, environment: environment)
        defer { remove(outputURL, errorURL) }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return try collect(process, outputURL, errorURL)
    }

    /// ``run(_:_:environment:)`` on the calling thread, for one-time setup.
    static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> Result {
        let (process, outputURL, errorURL) = try prepare(executable, arguments, environment: environment)
        defer { remove(outputURL, errorURL) }
        try process.run()
        process.waitUntilExit()
        return try collect(process, outputURL, errorURL)
    }

    /// A process with its output going to two new temporary files.
    private static func prepare(
        _ executable: String, _ arguments: [String], environment: [String: String]
    ) throws -> (Process, URL, URL) {
        let directory = FileManager.default.temporaryDirectory
        let outputURL = directory.appendingPathComponent("satchel-command-\(UUID().uuidString).out")
        let errorURL = directory.appendingPathComponent("satchel-command-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        return (process, outputURL, errorURL)
    }

    private static func collect(_ process: Process, _ outputURL: URL, _ errorURL: URL) throws -> Result {
        Result(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            errorOutput: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    private static func remove(_ urls: URL...) {
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}
