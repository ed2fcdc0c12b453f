// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The resident memory of this process, from `/proc/self`.
enum PeakMemory {
    /// `VmHWM` from `/proc/self/status` (the kernel's high-water mark of resident memory), in
    /// bytes; `nil` where the file or the line is missing.
    static func residentBytes() -> Int? {
        status("VmHWM:")
    }

    /// `VmRSS`, the resident memory now, in bytes; `nil` where the file or the line is missing.
    static func currentBytes() -> Int? {
        status("VmRSS:")
    }

    /// Resets the high-water mark to the resident memory now (`5` into `/proc/self/clear_refs`),
    /// so that ``residentBytes()`` reports the peak from here on; `false` when it cannot.
    static func resetPeak() -> Bool {
        (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }

    /// A `/proc/self/status` line's value in bytes (`"VmHWM:	   12345 kB"`).
    private static func status(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }
}
