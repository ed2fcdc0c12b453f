// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Progress lines on standard error, so standard output holds only the report.
enum Progress {
    /// Writes `message` as one line to standard error.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("satchel-bench: \(message)\n".utf8))
    }
}
