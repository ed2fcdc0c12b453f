// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `satchel decode` on record streams: one compact canonical JSON per record per line, printed as
/// each record completes.
@Suite struct RecordStreamCLITests {
    @Test func eventsPrintAsEventDataAndID() throws {
        let input = "data: a\n\n: comment\nevent: x\nid: 3\ndata: b\ndata: c\n\ndata: lost"
        let result = try CommandRunner.run(["decode", "-c", "text/event-stream"], input: Array(input.utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output
                == "{\"event\":\"message\",\"data\":\"a\",\"id\":\"\"}\n{\"event\":\"x\",\"data\":\"b\\nc\",\"id\":\"3\"}\n"
        )
    }

    @Test(arguments: ["application/jsonl", "application/x-ndjson"])
    func jsonLinesPrintTheRecordsBeforeAMalformedLineThenExit65(type: String) throws {
        let result = try CommandRunner.run(
            ["decode", "-c", type], input: Array("{\"b\":1,\"a\":2}\n\n[3]\n{oops}\n4\n".utf8))
        #expect(result.status == 65)
        #expect(result.output == "{\"b\":1,\"a\":2}\n[3]\n")
        #expect(result.errorOutput.contains("line 4"))
    }

    @Test func jsonTextSequencesPrintEachText() throws {
        let result = try CommandRunner.run(
            ["decode", "-c", "application/json-seq", "--big-integers", "string"],
            input: Array("\u{1E}{\"n\":123456789012345678901234567890}\n\u{1E}true\n".utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == "{\"n\":\"123456789012345678901234567890\"}\ntrue\n")
    }

    /// A record is printed while standard input is still open: the test reads it before it
    /// writes the next one.
    @Test func recordsPrintBeforeTheInputEnds() throws {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["decode", "-c", "application/x-ndjson"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        for index in 0..<3 {
            input.fileHandleForWriting.write(Data("{\"i\":\(index)}\n".utf8))
            #expect(try CommandRunner.nextLine(of: output) == "{\"i\":\(index)}\n")
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// 200 000 records (about 12 MB) in constant memory: the records are printed, never kept.
    @Test func twoHundredThousandRecordsInLittleMemory() throws {
        var body = ""
        body.reserveCapacity(13_000_000)
        for index in 0..<200_000 { body += "{\"index\":\(index),\"name\":\"record number \(index)\"}\n" }
        let path = try CommandRunner.temporaryFile(body)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let peak = try CommandRunner.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: peak) }
        let result = try CommandRunner.run(
            ["-f", "%M", "-o", peak, CommandRunner.executable.path, "decode", "-c", "application/x-ndjson", path],
            executable: URL(fileURLWithPath: "/usr/bin/time"))
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 200_000)
        #expect(lines.last == "{\"index\":199999,\"name\":\"record number 199999\"}")
        let kilobytes =
            Int(
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: peak)), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        // AddressSanitizer's shadow memory and quarantine make any figure meaningless there.
        if getenv("SATCHEL_SANITIZER") == nil {
            #expect(kilobytes < 64 * 1024, "peak resident memory \(kilobytes) KB")
        }
    }
}
