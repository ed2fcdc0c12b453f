// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import Testing

/// `satchel decode -c application/x-plist` and `satchel encode --as plist|plist-binary`.
@Suite struct PropertyListCLITests {
    static let parameters =
        #"{"name":"Zoë","n":[1,-2,18446744073709551615,2.5],"ok":true,"#
        + #""when":{"$date":"2026-11-22T12:00:00Z"},"blob":{"$data":"AAH/"},"ref":{"$uid":7}}"#

    @Test(arguments: ["plist", "plist-binary"])
    func encodeThenDecodeGivesTheCanonicalJSONBack(format: String) throws {
        let encoded = try CommandRunner.run(["encode", "--as", format], input: Array(Self.parameters.utf8))
        #expect(encoded.status == 0, "\(encoded.errorOutput)")
        let magic = format == "plist" ? "<?xml" : "bplist00"
        #expect(encoded.outputBytes.starts(with: Array(magic.utf8)))
        let decoded = try CommandRunner.run(["decode", "-c", "application/x-plist"], input: encoded.outputBytes)
        #expect(decoded.status == 0, "\(decoded.errorOutput)")
        // XML has no UID: it is written as CoreFoundation's CF$UID dictionary.
        let reference = format == "plist" ? #"{"CF$UID":7}"# : #"{"$uid":7}"#
        #expect(
            decoded.output == #"{"name":"Zoë","n":[1,-2,18446744073709551615,2.5],"ok":true,"#
                + #""when":{"$date":"2026-11-22T12:00:00Z"},"blob":{"$data":"AAH/"},"ref":\#(reference)}"# + "\n")
    }

    @Test func binaryOutputIsExactlyThePlist() throws {
        let encoded = try CommandRunner.run(["encode", "--as", "plist-binary"], input: Array(#"{"a":1}"#.utf8))
        let expected = try PropertyListWriter(format: .binary).write(["a": 1])
        #expect(encoded.outputBytes == expected)
        let headed = try CommandRunner.run(
            ["encode", "--as", "plist-binary", "--include-headers"], input: Array(#"{"a":1}"#.utf8))
        let head = String(decoding: headed.outputBytes.prefix(while: { $0 != 0x62 }), as: UTF8.self)
        #expect(head.contains("Content-Type: application/x-plist\r\n"))
        #expect(head.contains("Content-Length: \(expected.count)\r\n"))
        #expect(headed.outputBytes.suffix(expected.count) == expected[...])
    }

    @Test func getPutsParametersInTheQuery() throws {
        let result = try CommandRunner.run(
            ["encode", "--as", "plist", "--method", "GET"], input: Array(#"{"q":"a b"}"#.utf8))
        #expect(result.output == "q=a%20b\n")
    }

    @Test func failuresExitWithOneLine() throws {
        let malformed = try CommandRunner.run(
            ["decode", "-c", "application/x-plist"], input: Array("<plist><dict><key>a</key><x/></dict></plist>".utf8))
        #expect(malformed.status == 65)
        #expect(malformed.errorOutput.contains("unknown element <x> (at byte 25, line 1, column 26; key path $.a)"))
        let cycle = try CommandRunner.run(["decode", "-c", "application/x-plist"], input: Self.selfContainingArray)
        #expect(cycle.status == 65)
        #expect(cycle.errorOutput.contains("reference cycle"))
        let null = try CommandRunner.run(["encode", "--as", "plist-binary"], input: Array(#"{"a":[null]}"#.utf8))
        #expect(null.status == 65)
        #expect(null.errorOutput.contains("unencodableValue: property lists have no null (at key path $.a[0])"))
        #expect(null.outputBytes.isEmpty)
        let badDate = try CommandRunner.run(["encode", "--as", "plist"], input: Array(#"{"$date":"yesterday"}"#.utf8))
        #expect(badDate.status == 65)
    }

    /// A binary plist whose one object, an array, contains itself.
    static let selfContainingArray: [UInt8] =
        Array("bplist00".utf8) + [0xA1, 0x00, 0x08]
        + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8) + [
            0, 0, 0, 0, 0, 0, 0, 10,
        ]
}
