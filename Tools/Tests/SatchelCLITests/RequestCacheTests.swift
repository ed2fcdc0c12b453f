// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --cache DIR` and `--cache-policy`, and `kill -9` of a process writing an
/// entry, against the fast server.
@Suite(.hangGuard)
struct RequestCacheTests {
    let fast: String
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path

    init() throws {
        fast = try TestServers.shared().fast.absoluteString.trimmingCharacters(in: ["/"])
    }

    @Test func aSecondRunIsAnsweredFromTheCacheDirectory() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = UUID().uuidString
        let url = "\(fast)/cache-origin?key=\(key)&cc=max-age=86400"
        let first = try CommandRunner.run(["request", "GET", url, "--cache", directory, "-v", "--color", "never"])
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(first.errorOutput.contains("cache: stored\n"), "\(first.errorOutput)")
        let second = try CommandRunner.run(["request", "GET", url, "--cache", directory, "-v", "--color", "never"])
        #expect(second.errorOutput.contains("cache: hit\n"), "\(second.errorOutput)")
        #expect(second.output.contains("\"hit\": 1"))
        let reload = try CommandRunner.run([
            "request", "GET", url, "--cache", directory, "--cache-policy", "reload", "-v", "--color", "never",
        ])
        #expect(reload.errorOutput.contains("cache: stored\n"))
        #expect(reload.output.contains("\"hit\": 2"))
        let count = try CommandRunner.run([
            "request", "GET", "\(fast)/cache-origin-count?key=\(key)", "--color", "never",
        ])
        #expect(count.output.contains("\"hits\": 2"), "\(count.output)")
        let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
    }

    @Test func onlyCacheWithNothingStoredFailsSayingSo() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = "\(fast)/cache-origin?key=\(UUID().uuidString)&cc=max-age=86400"
        let result = try CommandRunner.run([
            "request", "GET", url, "--cache", directory, "--cache-policy", "only-cache", "-v",
        ])
        #expect(result.status == 22)
        #expect(result.errorOutput.contains("cache: miss\n"))
        #expect(result.errorOutput.contains("only-cache"), "\(result.errorOutput)")
        #expect(result.errorOutput.components(separatedBy: url).count == 2, "the URL once: \(result.errorOutput)")
    }

    @Test func aNoStoreResponseSaysWhy() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = "\(fast)/cache-origin?key=\(UUID().uuidString)&cc=no-store"
        let result = try CommandRunner.run(["request", "GET", url, "--cache", directory, "-v", "--color", "never"])
        #expect(result.errorOutput.contains("cache: not-stored (no-store)\n"), "\(result.errorOutput)")
    }

    @Test(arguments: [["--cache-policy", "reload"], ["--cache", "/dev/null/cache"], ["--cache-policy", "sometimes"]])
    func badCacheArgumentsAreRefused(arguments: [String]) throws {
        let result = try CommandRunner.run(["request", "GET", "\(fast)/get"] + arguments)
        #expect(result.status != 0)
        #expect(result.errorOutput.contains("cache"), "\(result.errorOutput)")
    }

    /// A process downloading a 4 MB response into the cache (reload: it writes the entry every
    /// time) is killed with SIGKILL ten times: five while it writes the entry, five at any moment; after each, a process that
    /// may only use the cache gets either nothing (a miss) or the whole body, byte for byte —
    /// never a torn one. A last run that is not killed stores it whole.
    @Test func killingAProcessWritingAnEntryNeverLeavesATornOne() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let size = 4_000_000
        let url = "\(fast)/large/\(size)?etag=kill-\(UUID().uuidString)&pace_ms=15&slice=125000"
        let expected = (0..<size).map { TestServers.largeByte(at: $0) }
        let received = directory + "-received"
        let written = directory + "-written"  // a download's file, beside the cache
        defer {
            for path in [received, written, written + ".part", written + ".part.resume"] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        var outcomes: [String] = []
        func readBack() throws {
            try? FileManager.default.removeItem(atPath: received)
            let result = try CommandRunner.run([
                "request", "GET", url, "--cache", directory, "--cache-policy", "only-cache", "--download", "-o",
                received, "--quiet",
            ])
            if result.status == 0 {
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: received)))
                #expect(bytes == expected)
                outcomes.append("whole")
            } else {
                #expect(result.errorOutput.contains("only-cache"), "\(result.errorOutput)")
                outcomes.append("miss")
            }
        }
        func startFresh() {
            // A fresh download each time: resuming a partial file would send a Range request,
            // which the cache stays out of.
            for path in [written, written + ".part", written + ".part.resume"] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        /// The temporary files in the directory (a killed writer leaves its own behind).
        func temporaryFiles() -> Set<String> {
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
                    $0.hasPrefix(".tmp-")
                })
        }
        var killedWhileWriting = 0
        for round in 0..<10 {
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = [
                "request", "GET", url, "--cache", directory, "--cache-policy", "reload", "--download", "-o", written,
                "--quiet",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            startFresh()
            let leftBefore = temporaryFiles()
            /// Whether this writer's entry is being written: a temporary file of its own is there.
            func writing() -> Bool { !temporaryFiles().subtracting(leftBefore).isEmpty }
            try process.run()
            if round % 2 == 0 {
                // While the entry is being written: once its temporary file is there.
                var waited = 0
                while !writing() && waited < 300 {
                    usleep(10_000)
                    waited += 1
                }
                usleep(UInt32.random(in: 0...200_000))
            } else {
                usleep(UInt32.random(in: 50_000...1_000_000))  // any moment
            }
            if writing() { killedWhileWriting += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try readBack()
        }
        startFresh()
        let finished = try CommandRunner.run([
            "request", "GET", url, "--cache", directory, "--cache-policy", "reload", "--download", "-o", written,
            "--quiet",
        ])
        #expect(finished.status == 0, "\(finished.errorOutput)")
        try readBack()
        #expect(outcomes.last == "whole", "\(outcomes)")
        #expect(killedWhileWriting > 0, "no kill landed while an entry was being written")
        print(
            "cache kill -9: \(killedWhileWriting) of 10 kills while writing; what the next process found: \(outcomes)")
    }
}
