// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// HTTP dates (RFC 9110 §5.6.7), read without Foundation's date formatters, which need the ICU
/// data that would make libsatchel 40 MB larger.
///
/// A recipient must accept the three formats senders have used: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`, a two-digit year
/// read as the nearest one not more than 50 years ahead) and asctime (`Sun Nov  6 08:49:37 1994`).
package enum HTTPDate {
    /// The seconds since 1970-01-01T00:00:00Z that `text` names, or `nil` when it is not an
    /// HTTP date. The day name is not checked against the date, as RFC 9110 allows.
    ///
    /// - Parameter currentYear: The year a two-digit RFC 850 year is read against; this year
    ///   by default.
    package static func secondsSince1970(_ text: String, currentYear: Int = currentYear()) -> Int64? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: String?
        switch words.count {
        case 6 where words[0].hasSuffix(",") && words[5] == "GMT":  // IMF-fixdate
            (day, month, year, time) = (Int(words[1]), monthNumber(words[2]), Int(words[3]), words[4])
            if words[1].count != 2 || words[3].count != 4 { return nil }
        case 4 where words[0].hasSuffix(",") && words[3] == "GMT":  // RFC 850
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2, let short = Int(parts[2]) else {
                return nil
            }
            var full = currentYear - currentYear % 100 + short
            if full > currentYear + 50 { full -= 100 }
            (day, month, year, time) = (Int(parts[0]), monthNumber(parts[1]), full, words[2])
        case 5:  // asctime
            (day, month, year, time) = (Int(words[2]), monthNumber(words[1]), Int(words[4]), words[3])
            if words[4].count != 4 { return nil }
        default:
            return nil
        }
        guard let day, let month, let year, let time, (1...31).contains(day), year >= 1 else { return nil }
        let clock = time.split(separator: ":").map { Int($0) }
        guard clock.count == 3, time.count == 8, let hour = clock[0], let minute = clock[1], let second = clock[2],
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            day <= CivilCalendar.daysIn(month: Int64(month), year: Int64(year))
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
        return days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    /// The current year (UTC).
    package static func currentYear() -> Int {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return Int(parts.tm_year) + 1900
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// 1 to 12 for a month's three-letter name (case-sensitive, as the grammar is).
    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }
}
