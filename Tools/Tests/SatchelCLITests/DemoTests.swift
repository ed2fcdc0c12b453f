// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel demo`, the README's first command: every step works against the embedded server,
/// plainly when piped and with colours and progress bars under a pseudo-terminal.
@Suite(.hangGuard)
struct DemoTests {
    static let steps = [
        "A form body", "A JSON body", "Property lists", "XML:", "Images:", "A streamed multipart upload",
        "A batch:", "A download cut halfway", "TLS pinned", "Server-Sent Events followed",
    ]

    @Test func everyStepWorksWhenPiped() throws {
        let result = try CommandRunner.run(["demo", "--upload-size", "3000000"])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        for (index, step) in Self.steps.enumerated() {
            #expect(result.output.contains("[\(index + 1)/10] \(step)"), "step \(index + 1) missing")
        }
        #expect(result.output.components(separatedBy: "\n✓ ").count == 11)
        #expect(!result.output.contains("✗"))
        #expect(result.output.hasSuffix("10 of 10 steps worked\n"))
        // What was sent and got, for example the resumed download's Range and the 206.
        #expect(result.output.contains("Range: bytes=4194304-"))
        #expect(result.output.contains("206 Partial Content, resumed from byte 4194304"))
        #expect(result.output.contains("the server parsed 2 parts of 11 bytes and 2.9 MiB"))
        #expect(result.output.contains("id 3  message  {\"i\":3}"))
        #expect(result.output.contains("the reconnection sent Last-Event-ID: 3"))
        // Piped: no colours, no progress bars.
        #expect(!result.output.contains("\u{1B}["))
        #expect(result.errorOutput.isEmpty)
    }

    @Test func rendersColoursAndProgressBarsUnderAPseudoTerminal() throws {
        let transcriptPath = try CommandRunner.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: transcriptPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(CommandRunner.executable.path)' demo --upload-size 64000000", "/dev/null"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: transcriptPath)
        try process.run()
        process.waitUntilExit()
        let transcript = String(decoding: try Data(contentsOf: URL(fileURLWithPath: transcriptPath)), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(transcript.suffix(2000))")
        #expect(transcript.contains("\u{1B}[1m[1/10]"))  // bold headings
        // The upload's bar is drawn in place and replaced by its totals line, and so is the
        // resumed download's.
        let segments = transcript.components(separatedBy: "\r")
        #expect(segments.contains { $0.hasPrefix("↑ [") }, "\(transcript.debugDescription.suffix(3000))")
        #expect(segments.contains { $0.hasPrefix("↑ 61.") && $0.contains("done") })
        #expect(segments.contains { $0.hasPrefix("↓ ") && $0.contains("done") })
        #expect(transcript.contains("10 of 10 steps worked"))
    }

    @Test func aBadOptionIsOneLineAndExit64() throws {
        let result = try CommandRunner.run(["demo", "--upload-size", "0"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.split(separator: "\n").count == 1)
        #expect(result.errorOutput.contains("--upload-size"))
    }
}

/// The README's first command is the demo.
@Test func readmeStartsWithTheDemo() throws {
    let root = TestServers.root
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let firstCommand = readme.split(separator: "\n").first { $0.hasPrefix("bash scripts/") }
    #expect(firstCommand?.hasPrefix("bash scripts/demo ") == true)
    let script = try String(contentsOf: root.appendingPathComponent("scripts/demo"), encoding: .utf8)
    #expect(script.contains("bash scripts/setup"))
    #expect(script.contains("satchel\" demo"))
}
