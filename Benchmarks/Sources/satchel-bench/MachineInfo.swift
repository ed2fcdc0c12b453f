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

    /// Gathers the facts about this machine and checkout.
    static func current() -> MachineInfo {
        MachineInfo(
            architecture: machineArchitecture(),
            processorCount: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: cpuModelName(),
            date: ISO8601DateFormatter().string(from: Date()),
            revision: gitRevision())
    }

    /// The facts as a Markdown list.
    var markdown: String {
        """
        - machine: \(architecture), \(processorCount) processors, \(cpuModel)
        - date: \(date)
        - Satchel revision: \(revision)
        - build: `swift run -c release` (\(Self.compilerDescription))
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
        let changes = run("git", ["-C", root, "status", "--porcelain", "--", "Sources", "Package.swift"]) ?? ""
        return changes.isEmpty ? head : "\(head) (with uncommitted changes in Sources/ or Package.swift)"
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
