// SPDX-License-Identifier: Apache-2.0
import Foundation

/// This process's memory as `/proc/self/status` tells it, for the tests that bound it (run alone
/// in their own process by `scripts/measure-transport-memory`: the figures are the process's).
///
/// Every reading throws when the kernel's file cannot be read or lacks the field, so that a
/// memory bound can never pass on a missing figure.
public enum ProcessMemory {
    /// `/proc/self` could not be read or written as the tests need.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// `VmRSS`, the resident set now, in bytes.
    ///
    /// - Throws: `ProcessMemory.Unavailable` when `/proc/self/status` has no readable `VmRSS`.
    public static var resident: Int { get throws { try field("VmRSS:") } }

    /// `VmHWM`, the peak resident set since the start or the last ``resetPeak()``, in bytes.
    ///
    /// - Throws: `ProcessMemory.Unavailable` when `/proc/self/status` has no readable `VmHWM`.
    public static var peakResident: Int { get throws { try field("VmHWM:") } }

    /// Makes the peak the resident set now (writes 5 to `/proc/self/clear_refs`).
    ///
    /// - Throws: `ProcessMemory.Unavailable` when the kernel refuses the write (the peak would
    ///   then include everything before, and a bound on its growth would measure nothing).
    public static func resetPeak() throws {
        do {
            try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        } catch {
            throw Unavailable(description: "cannot reset the peak resident set (/proc/self/clear_refs): \(error)")
        }
    }

    private static func field(_ name: String) throws -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw Unavailable(description: "/proc/self/status has no readable \(name) line") }
        return kilobytes * 1024
    }
}
