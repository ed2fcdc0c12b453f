// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// The progress bar: drawn under a pseudo-terminal (`script`), forced with --progress, absent
/// when standard error is not a terminal.
@Suite struct RequestProgressTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    @Test func rendersAndFinishesUnderAPseudoTerminal() throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-pty-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: destination) }
        // Paced slices so that more than one progress report is drawn.
        let url = "\(servers.fast)/large/2000000?pace_ms=60&slice=400000"
        let command = "'\(CommandRunner.executable.path)' request GET '\(url)' --output '\(destination)'"
        let transcriptPath = try CommandRunner.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: transcriptPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: transcriptPath)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let transcript = String(decoding: try Data(contentsOf: URL(fileURLWithPath: transcriptPath)), as: UTF8.self)
        // Redrawn in place: several bar frames, then the totals line ending the output.
        let frames = transcript.components(separatedBy: "\r").filter { $0.hasPrefix("↓ [") }
        #expect(frames.count >= 2, "\(transcript.debugDescription)")
        #expect(frames.contains { $0.contains("/ 1.9 MiB") })
        // The last redraw is the totals line (the pseudo-terminal turns its "\n" into "\r\n",
        // one Character, so it stays with the line).
        let segments = transcript.components(separatedBy: "\r")
        #expect(segments.last?.hasPrefix("↓ 1.9 MiB in ") == true, "\(transcript.debugDescription)")
        #expect(transcript.hasSuffix("/s)  done\u{1B}[K\r\n"))
        #expect((try Data(contentsOf: URL(fileURLWithPath: destination))).count == 2_000_000)
    }

    @Test func quietWhenStandardErrorIsNotATerminal() throws {
        let result = try CommandRunner.run(["request", "GET", "\(servers.fast)/large/200000", "--raw"])
        #expect(result.status == 0)
        #expect(result.errorOutput.isEmpty)
        #expect(result.outputBytes.count == 200_000)
    }

    @Test func forcedProgressShowsTheUpload() throws {
        let file = try CommandRunner.temporaryFile([UInt8](repeating: 7, count: 3_000_000))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CommandRunner.run(
            ["request", "POST", "\(servers.fast)/discard", "--progress", "--color", "never", "blob@\(file)"])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.hasSuffix("done\u{1B}[K\n"))
        #expect(result.errorOutput.contains("↑ 2.9 MiB"))
        #expect(result.output.contains("\"bytes\": 3000"))
        let silenced = try CommandRunner.run([
            "request", "POST", "\(servers.fast)/discard", "--progress", "--quiet", "blob@\(file)",
        ])
        #expect(silenced.errorOutput.isEmpty)
    }
}
