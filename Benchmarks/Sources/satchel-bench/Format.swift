// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Number formatting for the report (no locale: the same text on every machine).
enum Format {
    /// `value` with `digits` digits after the point.
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "∞" }
        return String(format: "%.\(digits)f", value)
    }

    /// A number of seconds without trailing zeros (`0.5`, `2`).
    static func seconds(_ value: Double) -> String {
        String(format: "%g", value)
    }

    /// The possessive of a name: `json-c's`, `URLComponents'`.
    static func possessive(_ name: String) -> String {
        name.hasSuffix("s") ? name + "'" : name + "'s"
    }

    /// A byte count as KB or MB (powers of ten, like the throughput).
    static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return fixed(Double(bytes) / 1e6, digits: 2) + " MB" }
        if bytes >= 1_000 { return fixed(Double(bytes) / 1e3, digits: 1) + " KB" }
        return "\(bytes) B"
    }
}
