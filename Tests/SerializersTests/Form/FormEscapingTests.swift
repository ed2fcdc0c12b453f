// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

@Suite("Form percent-escaping")
struct FormEscapingTests {
    /// The characters AFNetworking leaves alone, written out by hand.
    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?".utf8)

    /// `%XX` with upper-case hex, built without the code under test.
    private static func escaped(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%\(digits[Int(byte / 16)])\(digits[Int(byte % 16)])"
    }

    @Test("every printable ASCII byte in one string")
    func printableASCIIRun() throws {
        let printable = String(decoding: Array(0x20...0x7E as ClosedRange<UInt8>), as: UTF8.self)
        let expected =
            "%20%21%22%23%24%25%26%27%28%29%2A%2B%2C-./0123456789%3A%3B%3C%3D%3E?%40"
            + "ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60abcdefghijklmnopqrstuvwxyz%7B%7C%7D~"
        #expect(PercentEncoding.escape(printable) == expected)
        #expect(try FormWriter().queryString(from: ["v": .string(printable)]) == "v=\(expected)")
    }

    @Test("each printable ASCII byte, in a key and in a value", arguments: Array(0x20...0x7E as ClosedRange<UInt8>))
    func printableASCIIByte(byte: UInt8) throws {
        let character = String(decoding: [byte], as: UTF8.self)
        let expected = Self.allowed.contains(byte) ? character : Self.escaped(byte)
        let query = try FormWriter().queryString(from: .object(["k\(character)": .string("v\(character)")]))
        #expect(query == "k\(expected)=v\(expected)")
    }

    @Test("exactly 68 byte values are allowed, all ASCII")
    func allowedSet() {
        let allowed = (0...255).map(UInt8.init).filter(PercentEncoding.isAllowed)
        #expect(allowed.count == 68)
        #expect(Set(allowed) == Self.allowed)
    }

    @Test(
        "control bytes and bytes above 0x7E are escaped",
        arguments: Array(0x00..<0x20 as Range<UInt8>) + [0x7F, 0x80, 0xC3, 0xFF])
    func nonPrintable(byte: UInt8) {
        #expect(PercentEncoding.escape(bytes: [byte]) == Self.escaped(byte))
    }

    @Test(
        "UTF-8 text is escaped byte by byte",
        arguments: [
            ("é", "%C3%A9"),
            ("e\u{301}", "e%CC%81"),
            ("日本", "%E6%97%A5%E6%9C%AC"),
            ("😀", "%F0%9F%98%80"),
            ("👨‍👩‍👧", "%F0%9F%91%A8%E2%80%8D%F0%9F%91%A9%E2%80%8D%F0%9F%91%A7"),
        ])
    func utf8(text: String, expected: String) throws {
        #expect(PercentEncoding.escape(text) == expected)
        #expect(try FormWriter().queryString(from: .object([text: .string(text)])) == "\(expected)=\(expected)")
    }

    @Test("brackets of nested keys are escaped with the rest of the key")
    func bracketsEscaped() throws {
        #expect(try FormWriter().queryString(from: ["a": ["b c": ["é"]]]) == "a%5Bb%20c%5D%5B%5D=%C3%A9")
    }

    @Test("space as plus")
    func spaceAsPlus() {
        #expect(PercentEncoding.escape("a b+c", spaceEncoding: .plus) == "a+b%2Bc")
        #expect(PercentEncoding.escape("a b+c") == "a%20b%2Bc")
    }
}
