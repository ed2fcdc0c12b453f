// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Testing

@Suite("HTTP dates (RFC 9110 §5.6.7)")
struct HTTPDateTests {
    /// RFC 9110's example in its three formats: 784111777 seconds after the epoch.
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func theThreeFormats(text: String) {
        #expect(HTTPDate.secondsSince1970(text, currentYear: 2026) == 784_111_777)
    }

    @Test func edgesOfTheCalendar() {
        #expect(HTTPDate.secondsSince1970("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(HTTPDate.secondsSince1970("Wed, 31 Dec 1969 23:59:59 GMT") == -1)
        #expect(HTTPDate.secondsSince1970("Tue, 29 Feb 2000 12:00:00 GMT") == 951_825_600)
        #expect(HTTPDate.secondsSince1970("Sun, 01 Mar 2026 00:00:00 GMT") == 1_772_323_200)
        #expect(HTTPDate.secondsSince1970("Fri, 31 Dec 9999 23:59:59 GMT") == 253_402_300_799)
    }

    @Test func twoDigitYearsAreTheNearestNotMoreThanFiftyYearsAhead() {
        #expect(HTTPDate.secondsSince1970("Tuesday, 01-Jan-70 00:00:00 GMT", currentYear: 2026) == 3_155_760_000)
        // 2077 would be more than fifty years ahead of 2026: 1977. 2076 is exactly fifty: 2076.
        #expect(HTTPDate.secondsSince1970("Saturday, 01-Jan-77 00:00:00 GMT", currentYear: 2026) == 220_924_800)
        #expect(HTTPDate.secondsSince1970("Wednesday, 01-Jan-76 00:00:00 GMT", currentYear: 2026) == 3_345_062_400)
        #expect(HTTPDate.secondsSince1970("Monday, 01-Jan-35 00:00:00 GMT", currentYear: 2026) == 2_051_222_400)
    }

    @Test(
        arguments: [
            "", "tomorrow", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 nov 1994 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT",
            "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sun Nov  6 08:49:37 94", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov -994 08:49:37 GMT",
        ])
    func malformed(text: String) {
        #expect(HTTPDate.secondsSince1970(text, currentYear: 2026) == nil, "\(text.debugDescription)")
    }
}
