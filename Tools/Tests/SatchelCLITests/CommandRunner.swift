// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// Runs the built `satchel` binary and captures what it prints.
struct CommandRunner {
    struct Result {
        var status: Int32
        var outputBytes: [UInt8]
        var errorOutput: String
        var output: String { String(decoding: outputBytes, as: UTF8.self) }
    }

    /// The `satchel` executable in the build products folder, beside the test bundle.
    static let executable = BuiltProducts.satchel

    /// Runs `satchel` with `arguments`, `input` on standard input, and output captured in files
    /// (no pipes to fill up).
    static func run(
        _ arguments: [String], input: [UInt8] = [], executable: URL = executable, environment: [String: String] = [:]
    ) throws -> Result {
        let inputPath = try temporaryFile(input)
        let outputPath = try temporaryFile([])
        let errorPath = try temporaryFile([])
        defer {
            for path in [inputPath, outputPath, errorPath] { try? FileManager.default.removeItem(atPath: path) }
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle(forReadingAtPath: inputPath)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            outputBytes: Array(try Data(contentsOf: URL(fileURLWithPath: outputPath))),
            errorOutput: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self))
    }

    /// The next line a running command writes to `output`, LF included; fails the test when
    /// the output ends first.
    static func nextLine(of output: Pipe) throws -> String {
        var line: [UInt8] = []
        while line.last != 0x0A {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            try #require(!byte.isEmpty, "the output ended before a whole line")
            line += byte
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Writes `contents` to a new temporary file and returns its path.
    static func temporaryFile(_ contents: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-test-\(UUID().uuidString)")
        try Data(contents).write(to: url)
        return url.path
    }

    static func temporaryFile(_ contents: String) throws -> String {
        try temporaryFile(Array(contents.utf8))
    }
}
