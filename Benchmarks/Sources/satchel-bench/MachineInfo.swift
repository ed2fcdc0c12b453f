// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the numbers were measured on: machine, processor, date and Satchel's revision.
struct MachineInfo: Sendable {
    /// `uname -m`.
    let architecture: String
    /// Online processors (`nproc`).
    let processorCount: Int
    /// The first `model name` in `/proc/cpuinfo`.
    let cpuModel: String
    /// When the run started, ISO 8601 in UTC.
    let date: String
    /// `git rev-parse --short HEAD`, with a note when Satchel's sources differ from it.
    let revision: String
    /// `MemTotal` of `/proc/meminfo`, in bytes (0 when unknown).
    let memoryBytes: Int
    /// `uname -sr`.
    let kernel: String
    /// The first line of `swift --version`, or the compiler version this runner was built with.
    let swiftVersion: String

    /// Gathers the facts about this machine and checkout.
    static func current() -> MachineInfo {
        MachineInfo(
            architecture: machineArchitecture(),
            processorCount: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: cpuModelName(),
            date: ISO8601DateFormatter().string(from: Date()),
            revision: gitRevision(),
            memoryBytes: memoryTotal(),
            kernel: kernelRelease(),
            swiftVersion: run("swift", ["--version"])?.split(separator: "\n").first.map(String.init)
                ?? "built with \(compilerDescription)")
    }

    /// The facts as a Markdown list, with `command`, the command that produced the report.
    func markdown(command: String?) -> String {
        let memory =
            memoryBytes > 0
            ? Format.fixed(Double(memoryBytes) / Double(1 << 30), digits: 1) + " GiB memory" : "memory unknown"
        return """
            - machine: \(architecture), \(processorCount) processors, \(cpuModel), \(memory), \(kernel)
            - Swift: \(swiftVersion); benchmarks built with `swift build -c release`
            - date: \(date)
            - Satchel revision: \(revision)
            - command: `\(command ?? "satchel-bench")`
            """
    }

    private static var compilerDescription: String {
        #if compiler(>=6.3)
            "Swift 6.3 or later"
        #elseif compiler(>=6.2)
            "Swift 6.2"
        #else
            "Swift 6.1"
        #endif
    }

    private static func machineArchitecture() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &name.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func kernelRelease() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "unknown kernel" }
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(&name.sysname)) \(text(&name.release))"
    }

    private static func memoryTotal() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }),
            let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kibibytes * 1024
    }

    private static func cpuModelName() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown CPU"
    }

    private static func gitRevision() -> String {
        let root = PackageLocation.repositoryDirectory.path
        guard let head = run("git", ["-C", root, "rev-parse", "--short", "HEAD"]), !head.isEmpty else {
            return "unknown (not a git checkout)"
        }
        // Uncommitted changes to the measured code make the revision alone misleading.
        let changes = run("git", ["-C", root, "status", "--porcelain", "--untracked-files=no"]) ?? ""
        return changes.isEmpty ? head : "\(head)-dirty (uncommitted changes to tracked files)"
    }

    /// Runs a program found on `PATH` and returns its trimmed standard output, or `nil` if it
    /// could not run or failed.
    private static func run(_ program: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
