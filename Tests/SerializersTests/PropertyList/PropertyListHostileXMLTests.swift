// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Hostile and malformed XML plists: each is a clear SatchelError with its line and column.
@Suite struct PropertyListHostileXMLTests {
    static func document(_ body: String, version: String = "1.0") -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="\(version)">
            \(body)
            </plist>
            """.utf8)
    }

    static func error(_ bytes: [UInt8], limits: Limits = .default) -> SatchelError? {
        satchelError { try readPlist(bytes, limits: limits) }
    }

    @Test(arguments: [
        ("<string>unterminated", SatchelError.Code.syntaxError),
        ("<string>a</strin>", .syntaxError),
        ("<dict><key>a</key></dict>", .syntaxError),
        ("<dict><string>a</string></dict>", .syntaxError),
        ("<dict>text<key>a</key><true/></dict>", .syntaxError),
        ("<array><foo/></array>", .syntaxError),
        ("<key>a</key>", .syntaxError),
        ("<string a=\"1\">x</string>", .syntaxError),
        ("<string>a<b/>c</string>", .syntaxError),
        ("<true>x</true>", .syntaxError),
        ("<integer>12a</integer>", .syntaxError),
        ("<integer></integer>", .syntaxError),
        ("<integer>-</integer>", .syntaxError),
        ("<integer>99999999999999999999</integer>", .numberOutOfRange),
        ("<integer>-9223372036854775809</integer>", .numberOutOfRange),
        ("<real>1.5.5</real>", .syntaxError),
        ("<real></real>", .syntaxError),
        ("<date>2026-02-30T00:00:00Z</date>", .syntaxError),
        ("<date>2026-01-01 00:00:00</date>", .syntaxError),
        ("<date>2026-01-01T24:00:00Z</date>", .syntaxError),
        ("<data>not base64!</data>", .syntaxError),
        ("<data>QUJD=</data>", .syntaxError),
        ("<string>&unknown;</string>", .syntaxError),
        ("<string>&#0;</string>", .syntaxError),
        ("<string>&#xD800;</string>", .syntaxError),
        ("<string>a & b</string>", .syntaxError),
        ("<string>bell \u{7}</string>", .syntaxError),
        ("<string><![CDATA[open</string>", .truncatedInput),
        ("<true/><false/>", .syntaxError),
        ("", .syntaxError),
        ("<plist version=\"1.0\"><true/></plist>", .syntaxError),
    ])
    func malformedDocuments(body: String, code: SatchelError.Code) throws {
        let error = Self.error(Self.document(body))
        #expect(error?.code == code, "\(body): \(error.map(String.init(describing:)) ?? "no error")")
        #expect(error?.line != nil && error?.column != nil)
    }

    @Test func everyTruncationIsAnError() throws {
        let bytes = try PropertyListWriter(format: .xml).write(["a": [1, "two", .bytes([3])], "b": ["c": true]])
        for length in 0..<bytes.count - 1 {
            #expect(Self.error(Array(bytes.prefix(length))) != nil, "prefix \(length)")
        }
    }

    @Test func errorsNameLineColumnAndKeyPath() throws {
        let error = Self.error(
            Self.document("<dict>\n\t<key>items</key>\n\t<array>\n\t\t<integer>x</integer>\n\t</array>\n</dict>"))
        #expect(error?.code == .syntaxError)
        #expect(error?.line == 6)
        #expect(error?.column == 3)
        #expect(error?.keyPath == "$.items[0]")
    }

    @Test func wrongVersionsEncodingsAndRoots() throws {
        #expect(Self.error(Self.document("<true/>", version: "2.0"))?.code == .unsupportedFormat)
        let utf16 = Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><true/></plist>".utf8)
        #expect(Self.error(utf16)?.code == .unsupportedFormat)
        #expect(Self.error(Array("<dict/>".utf8))?.code == .syntaxError)
        #expect(Self.error(Array("<plistx><true/></plistx>".utf8))?.code == .syntaxError)
        #expect(Self.error(Array("<plist version=\"1.0\"/>".utf8))?.code == .syntaxError)
        #expect(Self.error(Array("<plist version=\"1.0\"></plist>".utf8))?.code == .syntaxError)
        #expect(Self.error(Array("<!-- only a comment -->".utf8))?.code == .truncatedInput)
        #expect(try readPlist(Array("<plist><true/></plist>".utf8)) == true)
    }

    @Test func trailingContentIsAnError() throws {
        #expect(Self.error(Self.document("<true/>") + Array("junk".utf8))?.code == .syntaxError)
        #expect(Self.error(Self.document("<true/>") + Array("<plist/>".utf8))?.code == .syntaxError)
        // Trailing white space, comments and processing instructions are allowed.
        #expect(try readPlist(Self.document("<true/>") + Array("\n<!-- end -->\n<?pi x?>\n".utf8)) == true)
    }

    @Test func entityDeclarationsAreRefusedSoNothingExpands() throws {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
              <!ENTITY a "aaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
            ]>
            <plist version="1.0"><string>&c;</string></plist>
            """
        #expect(Self.error(Array(bomb.utf8))?.code == .unsupportedFormat)
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE plist SYSTEM "file:///etc/passwd">
            <plist version="1.0"><string>&xxe;</string></plist>
            """
        #expect(Self.error(Array(external.utf8))?.code == .syntaxError)
    }

    @Test func invalidUTF8IsAnEncodingError() throws {
        var bytes = Self.document("<string>ok</string>")
        let index = try #require(
            bytes.firstIndex(of: UInt8(ascii: "o")).map { bytes[$0...].firstIndex(of: UInt8(ascii: "k")) ?? $0 })
        bytes[index] = 0xC3
        #expect(Self.error(bytes)?.code == .invalidEncoding)
    }

    @Test(
        arguments: [
            [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
            [0xF8, 0x88, 0x80, 0x80, 0x80],
        ] as [[UInt8]])
    func malformedUTF8Sequences(sequence: [UInt8]) throws {
        for prefix in ["a", "seventeen bytes.."] {  // the byte-wise and the eight-byte path
            let bytes = Array("<plist><string>\(prefix)".utf8) + sequence + Array("b</string></plist>".utf8)
            #expect(Self.error(bytes)?.code == .invalidEncoding)
        }
    }

    @Test func wellFormedUTF8OfEveryLength() throws {
        let text = "a\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"
        #expect(try readPlist(Array("<plist><string>\(text)</string></plist>".utf8)) == .string(text))
    }

    @Test func limitsOnStringsPairsDepthAndBody() throws {
        let long = Self.document("<string>\(String(repeating: "x", count: 100))</string>")
        #expect(Self.error(long, limits: Limits(maxStringBytes: 99))?.limit == "maxStringBytes")
        #expect(try readPlist(long, limits: Limits(maxStringBytes: 100)).stringValue?.count == 100)
        let keys = Self.document("<dict>" + (0..<5).map { "<key>k\($0)</key><true/>" }.joined() + "</dict>")
        #expect(Self.error(keys, limits: Limits(maxPairs: 4))?.limit == "maxPairs")
        #expect(try readPlist(keys, limits: Limits(maxPairs: 5)).objectValue?.count == 5)
        let deep = Self.document(String(repeating: "<array>", count: 600) + String(repeating: "</array>", count: 600))
        #expect(Self.error(deep)?.limit == "maxDepth")
        #expect(Self.error(long, limits: Limits(maxBodyBytes: 50))?.limit == "maxBodyBytes")
    }

    @Test func seededMutationsNeverCrash() throws {
        let mutator = ByteMutator(
            alphabet: Array("<>/&;#x0123456789abcdef \n\r\t\"'=[]!-?".utf8) + [0, 0x80, 0xC3, 0xFF],
            snippets: [
                "<dict>", "</dict>", "<array>", "</array>", "<key>", "</key>", "<string>", "</string>", "<![CDATA[",
                "]]>",
                "<!--", "-->", "&amp;", "&#x1F392;", "<integer>", "<real>", "<date>", "<data>", "<true/>",
                "<!DOCTYPE plist [",
                "<plist>",
            ])
        #expect(try readSeededMutations(format: .xml, mutator: mutator, seed: 0x9157) > 0)
    }
}
