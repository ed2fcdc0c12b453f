// SPDX-License-Identifier: Apache-2.0
/// Numbers and booleans read from text, for the formats that hold only text (forms, XML): one
/// set of rules for every typed decoder of such a format.
package enum TextualScalar {
    /// `1`/`0`, `true`/`false`, `on`/`off` (an HTML checkbox), `yes`/`no`, in any case.
    package static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "on", "yes": true
        case "0", "false", "off", "no": false
        default: nil
        }
    }

    /// The words ``bool(_:)`` accepts, for error messages.
    package static let boolWords = "1, 0, true, false, on, off, yes, no"

    /// What reading an integer found.
    package enum IntegerReading<I: FixedWidthInteger> {
        case value(I)
        /// Not an optional sign followed by decimal digits.
        case notAnInteger
        /// Digits that do not fit in `I`.
        case outOfRange
    }

    /// Decimal digits with an optional `+` or `-`.
    package static func integer<I: FixedWidthInteger>(_ text: String, as type: I.Type) -> IntegerReading<I> {
        let utf8 = text.utf8
        let signed = utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+")
        let digits = utf8.dropFirst(signed ? 1 : 0)
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return .notAnInteger }
        guard let value = I(text) else { return .outOfRange }
        return .value(value)
    }

    /// Swift's `Double` syntax; `nan` is refused, infinities only when spelled out.
    package static func double(_ text: String) -> Double? {
        guard let number = Double(text), !number.isNaN else { return nil }
        return number.isFinite || text.lowercased().contains("inf") ? number : nil
    }
}
