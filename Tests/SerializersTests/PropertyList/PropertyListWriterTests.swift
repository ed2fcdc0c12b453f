// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Writing property lists: what each format looks like, what cannot be written, and that every
/// kind reads back through our own reader in both formats.
@Suite struct PropertyListWriterTests {
    @Test(arguments: PropertyListFormat.allCases)
    func everyKindReadsBack(format: PropertyListFormat) throws {
        let bytes = try PropertyListWriter(format: format).write(everyKindValue)
        let value = try readPlist(bytes)
        #expect(value == everyKindValue)
        #expect(value.objectValue.map { Array($0.keys) } == everyKindValue.objectValue.map { Array($0.keys) })
    }

    @Test func xmlLooksLikeApples() throws {
        let text = String(
            decoding: try PropertyListWriter().write(["a": [1, 2.5, true], "b": [:], "c": .bytes([0xFF])]),
            as: UTF8.self)
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>a</key>
                \t<array>
                \t\t<integer>1</integer>
                \t\t<real>2.5</real>
                \t\t<true/>
                \t</array>
                \t<key>b</key>
                \t<dict/>
                \t<key>c</key>
                \t<data>/w==</data>
                </dict>
                </plist>

                """)
    }

    @Test func specialRealsAndDatesInXML() throws {
        let text = String(
            decoding: try PropertyListWriter().write([
                .double(.nan), .double(.infinity), .double(-.infinity), .date(Date(timeIntervalSince1970: 1.999)),
                .date(Date(timeIntervalSince1970: -1)),
            ]), as: UTF8.self)
        #expect(text.contains("<real>nan</real>"))
        #expect(text.contains("<real>+infinity</real>"))
        #expect(text.contains("<real>-infinity</real>"))
        #expect(text.contains("<date>1970-01-01T00:00:01Z</date>"))
        #expect(text.contains("<date>1969-12-31T23:59:59Z</date>"))
        let value = try readPlist(Array(text.utf8))
        #expect(value[0]?.doubleValue?.isNaN == true)
        #expect(value[1] == .double(.infinity))
    }

    /// The XML form's text is written straight into its bytes: dates at both ends of the years
    /// it can hold, base64 of every tail length, integers at their limits, and a document many
    /// times the first buffer's size.
    @Test func xmlTextIsWrittenByteForByte() throws {
        let first = Date(timeIntervalSince1970: -62_135_596_800)  // 0001-01-01T00:00:00Z
        let last = Date(timeIntervalSince1970: 253_402_300_799.5)  // 9999-12-31T23:59:59Z
        let value: Value = [
            .date(first), .date(last), .bytes([]), .bytes([0xFF]), .bytes([0xFB, 0xFF]), .bytes([0, 1, 2, 3]),
            .integer(.min), .integer(-1), .integer(0), .unsignedInteger(.max),
        ]
        let text = String(decoding: try PropertyListWriter().write(value), as: UTF8.self)
        for expected in [
            "<date>0001-01-01T00:00:00Z</date>", "<date>9999-12-31T23:59:59Z</date>", "<data></data>",
            "<data>/w==</data>", "<data>+/8=</data>", "<data>AAECAw==</data>",
            "<integer>-9223372036854775808</integer>",
            "<integer>-1</integer>", "<integer>0</integer>", "<integer>18446744073709551615</integer>",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
        #expect(
            try readPlist(Array(text.utf8)) == [
                .date(first), .date(Date(timeIntervalSince1970: 253_402_300_799)), .bytes([]), .bytes([0xFF]),
                .bytes([0xFB, 0xFF]), .bytes([0, 1, 2, 3]), .integer(.min), .integer(-1), .integer(0),
                .unsignedInteger(.max),
            ])
        let large = Value.array(
            (0..<20_000).map { ["key \($0)": .bytes(Array(repeating: UInt8($0 & 0xFF), count: $0 % 50))] })
        #expect(try readPlist(PropertyListWriter().write(large)) == large)
    }

    @Test func binaryKeepsFractionalDatesAndSharesStrings() throws {
        let date = Value.date(Date(timeIntervalSinceReferenceDate: 12.345))
        #expect(try readPlist(PropertyListWriter(format: .binary).write(date)) == date)
        let repeated = Value.array(Array(repeating: ["key": "value"], count: 100))
        let bytes = try PropertyListWriter(format: .binary).write(repeated)
        // 100 dictionaries + 2 shared strings + the array: one "value" string, not a hundred.
        #expect(bytes.count < 100 * 5 + 200)
        #expect(try readPlist(bytes) == repeated)
    }

    @Test func uidsWriteBackAsUIDsInBinaryAndAsCFUIDInXML() throws {
        let value: Value = ["ref": .payload(PropertyListUID(300))]
        #expect(try readPlist(PropertyListWriter(format: .binary).write(value)) == value)
        let xml = try PropertyListWriter(format: .xml).write(value)
        #expect(try readPlist(xml) == ["ref": ["CF$UID": 300]])
    }

    @Test(arguments: PropertyListFormat.allCases)
    func nullAndForeignPayloadsAreUnencodableWithTheirKeyPath(format: PropertyListFormat) throws {
        let error = satchelError { try PropertyListWriter(format: format).write(["a": [1, ["b": nil]]]) }
        #expect(error?.code == .unencodableValue)
        #expect(error?.keyPath == "$.a[1].b")
        let deep = (0..<5).reduce(Value.integer(1)) { inner, _ in .array([inner]) }
        let limit = satchelError { try PropertyListWriter(format: format, maxDepth: 3).write(deep) }
        #expect(limit?.code == .limitExceeded)
        #expect(limit?.limit == "maxDepth")
    }

    @Test func xmlRefusesControlCharactersAndOutOfRangeDates() throws {
        let control = satchelError { try PropertyListWriter().write(["k": "bell \u{7}"]) }
        #expect(control?.code == .unencodableValue)
        #expect(control?.keyPath == "$.k")
        let far = satchelError { try PropertyListWriter().write(.date(Date(timeIntervalSince1970: 1e12))) }
        #expect(far?.code == .unencodableValue)
        // Binary has no such limits.
        #expect(try readPlist(PropertyListWriter(format: .binary).write("bell \u{7}")) == "bell \u{7}")
    }
}
