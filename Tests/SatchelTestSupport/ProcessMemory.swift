import Foundation

/// This process's memory as `/proc/self/status` tells it, for the tests that bound it (run alone
/// in their own process by `scripts/measure-transport-memory`: the figures are the process's).
public enum ProcessMemory {
    /// `VmRSS`, the resident set now, in bytes; -1 when it cannot be read.
    public static var resident: Int { field("VmRSS:") }

    /// `VmHWM`, the peak resident set since the start or the last ``resetPeak()``, in bytes; -1
    /// when it cannot be read.
    public static var peakResident: Int { field("VmHWM:") }

    /// Makes the peak the resident set now (writes 5 to `/proc/self/clear_refs`).
    public static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return -1 }
        return kilobytes * 1024
    }
}
