// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The date text of XML property lists, `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds), converted
/// with ``CivilCalendar`` (the proleptic Gregorian calendar), with no formatter.
enum PropertyListDate {
    /// Appends the text of `date`, fractions of a second truncated; `false`, with nothing
    /// appended, outside the years 1 to 9999.
    static func append(_ date: Date, to text: inout PropertyListByteBuffer) -> Bool {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= -62_135_596_800, seconds < 253_402_300_800 else { return false }
        let total = Int64(seconds)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        text.appendDecimal(year, width: 4)
        text.append(UInt8(ascii: "-"))
        text.appendDecimal(month, width: 2)
        text.append(UInt8(ascii: "-"))
        text.appendDecimal(day, width: 2)
        text.append(UInt8(ascii: "T"))
        text.appendDecimal(secondOfDay / 3600, width: 2)
        text.append(UInt8(ascii: ":"))
        text.appendDecimal(secondOfDay / 60 % 60, width: 2)
        text.append(UInt8(ascii: ":"))
        text.appendDecimal(secondOfDay % 60, width: 2)
        text.append(UInt8(ascii: "Z"))
        return true
    }

    /// The date of `YYYY-MM-DDTHH:MM:SSZ`, or `nil` when the text is not exactly that or names
    /// no real time (month 13, February 30, hour 24).
    static func date(from text: UnsafeRawBufferPointer) -> Date? {
        guard text.count == 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"),
            text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var result: Int64 = 0
            for index in start..<start + count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                result = result * 10 + Int64(digit)
            }
            return result
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            year >= 1, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }
}
