// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs the repository's `.venv` Python (made by `scripts/setup`) as an independent peer.
public enum VenvPython {
    /// `.venv/bin/python`.
    public static let executable = TestServers.root.appendingPathComponent(".venv/bin/python")

    /// Runs `script` (Python source) with `arguments` in `sys.argv[1:]` and `input` on standard
    /// input.
    ///
    /// - Returns: the exit status and standard output (through a file, so no pipe fills up);
    ///   standard error goes to this process's.
    /// - Throws: `TestServers.StartError` when `.venv` is missing; Foundation's errors when the
    ///   process cannot run.
    public static func run(
        _ script: String, _ arguments: [String] = [], input: [UInt8] = []
    ) throws -> (status: Int32, output: String) {
        try execute(executable.path, ["-c", script] + arguments, input: input)
    }

    /// Runs any `executable` with `arguments` the same way; returns its exit status and standard output.
    public static func execute(
        _ executable: String, _ arguments: [String], input: [UInt8] = []
    ) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestServers.StartError("\(executable) is missing: run scripts/setup")
        }
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-py-\(UUID().uuidString)")
        let inputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-py-\(UUID().uuidString).in")
        try Data().write(to: outputPath)
        try Data(input).write(to: inputPath)
        defer {
            try? FileManager.default.removeItem(at: outputPath)
            try? FileManager.default.removeItem(at: inputPath)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputPath)
        process.standardOutput = try FileHandle(forWritingTo: outputPath)
        process.standardError = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: outputPath, encoding: .utf8))
    }
}
