import Foundation
import SatchelTestSupport
import Testing

/// Ctrl-C: exit 130 with one line, and the partial download resumes on the next run.
@Suite struct RequestInterruptTests {
    @Test func interruptedDownloadExits130AndResumes() throws {
        let servers = try TestServers.shared()
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-int-\(UUID().uuidString)"
        ).path
        let partial = destination + ".part"
        defer {
            for path in [destination, partial, partial + ".resume"] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        let errorPath = try CommandRunner.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        // 500 kB slices 100 ms apart: interrupted after the first slices arrived.
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = [
            "request", "GET", "\(servers.fast)/large/3000000?pace_ms=100&slice=500000", "--download", "-o", destination,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        var waited = 0
        while ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0) == 0, waited < 200 {
            usleep(20_000)
            waited += 1
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self)
                == "satchel: interrupted\n")
        #expect(!FileManager.default.fileExists(atPath: destination))

        let resumed = try CommandRunner.run([
            "request", "GET", "\(servers.fast)/large/3000000?pace_ms=100&slice=500000", "--download", "-o", destination,
        ])
        #expect(resumed.status == 0, "\(resumed.errorOutput)")
        #expect(resumed.errorOutput.contains("(resumed at "))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(bytes.count == 3_000_000)
        #expect(bytes.indices.allSatisfy { bytes[$0] == TestServers.largeByte(at: $0) })
    }
}
