// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The peak resident set size of this process.
enum PeakMemory {
    /// `VmHWM` from `/proc/self/status` (the kernel's high-water mark of resident memory), in
    /// bytes; `nil` where the file or the line is missing.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // "VmHWM:	   12345 kB"
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
            return kibibytes * 1024
        }
        return nil
    }
}
