// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// Ctrl-C: exit 130 with one line, and the partial download resumes on the next run; a killed
/// download leaves no file at its destination; `--durability` decides whether the file is
/// flushed to the disk before it is renamed into place (seen by `strace`).
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

    @Test func aKilledDownloadLeavesNoFileAtItsDestinationAndResumes() throws {
        let servers = try TestServers.shared()
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-kill-\(UUID().uuidString)"
        ).path
        let partial = destination + ".part"
        defer {
            for path in [destination, partial, partial + ".resume"] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        let url = "\(servers.fast)/large/3000000?pace_ms=100&slice=500000"
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["request", "GET", url, "--download", "-o", destination, "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var waited = 0
        while ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0) == 0, waited < 200 {
            usleep(20_000)
            waited += 1
        }
        kill(process.processIdentifier, SIGKILL)  // no handler runs: what is on disk is what a crash leaves
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(!FileManager.default.fileExists(atPath: destination))
        let kept = (try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0
        #expect(kept > 0 && kept < 3_000_000)
        let resumed = try CommandRunner.run(["request", "GET", url, "--download", "-o", destination])
        #expect(resumed.status == 0, "\(resumed.errorOutput)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(bytes.count == 3_000_000 && bytes.indices.allSatisfy { bytes[$0] == TestServers.largeByte(at: $0) })
    }

    @Test func anUnknownDurabilityIsAUsageError() throws {
        let result = try CommandRunner.run([
            "request", "GET", "http://127.0.0.1:1/x", "--download", "--durability", "fsync",
        ])
        #expect(result.status == 64, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("--durability") && result.errorOutput.contains("synced"))
    }

    /// The system calls of a download under `strace`: with `synced` writeback of the partial file
    /// is started as it arrives (every 8 MiB), the file is flushed before it is renamed into place
    /// and the folder after; with `none` nothing is flushed.
    @Test(arguments: ["synced", "none"])
    func durabilityDecidesWhatIsFlushed(durability: String) throws {
        let servers = try TestServers.shared()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("large.bin").path
        let trace = folder.appendingPathComponent("strace.log").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        process.arguments = [
            "-f", "-qq", "-e", "trace=fsync,fdatasync,sync_file_range,rename,renameat,renameat2", "-o", trace,
            CommandRunner.executable.path, "request", "GET", "\(servers.fast)/large/20000000", "--download", "-o",
            destination, "--quiet", "--durability", durability,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect((try? Data(contentsOf: URL(fileURLWithPath: destination)).count) == 20_000_000)
        let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: trace)), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        let rename = lines.firstIndex { $0.contains("rename") && $0.contains("large.bin.part") }
        let flushes = lines.indices.filter { lines[$0].contains("fsync(") || lines[$0].contains("fdatasync(") }
        let writebacks = lines.indices.filter { lines[$0].contains("sync_file_range(") }
        #expect(rename != nil, "\(lines)")
        if durability == "synced" {
            #expect(writebacks.count == 2, "20 MB: writeback started at 8 and 16 MiB: \(lines)")
            #expect(writebacks.allSatisfy { $0 < flushes.first ?? 0 }, "before the closing flush: \(lines)")
            #expect(flushes.contains { $0 < rename ?? 0 }, "the file is flushed before the rename: \(lines)")
            #expect(flushes.contains { $0 > rename ?? .max }, "the folder is flushed after it: \(lines)")
        } else {
            #expect(flushes.isEmpty && writebacks.isEmpty, "\(lines)")
        }
    }
}
