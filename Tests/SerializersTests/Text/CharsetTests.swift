// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// Every encoding of the WHATWG Encoding Standard, checked both ways against Python's codecs
/// (the independent peer) on the characters each can write.
@Suite("Charsets: every encoding the web uses, against Python's codecs")
struct CharsetTests {
    /// Satchel's name → Python's codec with the same table (the Standard's Shift_JIS is
    /// windows-31J, its EUC-KR windows-949, its Big5 Big5-HKSCS).
    static let peers: [(String, String)] = [
        ("ibm866", "cp866"), ("iso-8859-2", "iso8859_2"), ("iso-8859-3", "iso8859_3"), ("iso-8859-4", "iso8859_4"),
        ("iso-8859-5", "iso8859_5"), ("iso-8859-6", "iso8859_6"), ("iso-8859-7", "iso8859_7"),
        ("iso-8859-8", "iso8859_8"), ("iso-8859-8-i", "iso8859_8"), ("iso-8859-10", "iso8859_10"),
        ("iso-8859-13", "iso8859_13"), ("iso-8859-14", "iso8859_14"), ("iso-8859-15", "iso8859_15"),
        ("iso-8859-16", "iso8859_16"), ("koi8-r", "koi8_r"), ("koi8-u", "koi8_u"), ("macintosh", "mac_roman"),
        ("windows-874", "cp874"), ("windows-1250", "cp1250"), ("windows-1251", "cp1251"), ("windows-1252", "cp1252"),
        ("windows-1253", "cp1253"), ("windows-1254", "cp1254"), ("windows-1255", "cp1255"), ("windows-1256", "cp1256"),
        ("windows-1257", "cp1257"), ("windows-1258", "cp1258"), ("x-mac-cyrillic", "mac_cyrillic"), ("gbk", "gbk"),
        ("gb18030", "gb18030"), ("big5", "big5hkscs"), ("euc-jp", "euc_jp"), ("iso-2022-jp", "iso2022_jp"),
        ("shift_jis", "cp932"), ("euc-kr", "cp949"), ("utf-16be", "utf_16_be"), ("utf-16le", "utf_16_le"),
        ("utf-8", "utf_8"), ("iso-8859-1", "latin_1"), ("us-ascii", "ascii"),
    ]

    struct Sample: Decodable {
        var text: String
        var bytes: String  // hex
        var replaced: String  // Python's decode of `invalid` with errors="replace"
        var invalid: String  // hex: bytes with an invalid sequence, or "" when every byte is valid
        var references: String  // hex: "a☃b" and the like written with xmlcharrefreplace
    }

    /// Python writes, for each codec: the characters it can write (single-byte: every defined
    /// byte; multi-byte: a sample of letters, kana, hangul and ideographs) and their bytes.
    static let samples: [String: Sample] = {
        let script = #"""
            import codecs, json, sys
            pool = [chr(c) for c in list(range(0x20, 0x7F)) + list(range(0xA0, 0x250)) + list(range(0x370, 0x530))
                    + list(range(0x5D0, 0x5EB)) + list(range(0x620, 0x64B)) + list(range(0xE01, 0xE5C))
                    + list(range(0x2010, 0x2040)) + [0x20AC, 0x2122, 0x2116] + list(range(0x3041, 0x3097))
                    + list(range(0x30A1, 0x30FB)) + list(range(0x4E00, 0x9FA5, 37)) + list(range(0xAC00, 0xD7A3, 97))
                    + list(range(0xFF01, 0xFF5F)) + list(range(0x2500, 0x2580))]
            out = {}
            for name, codec in json.loads(sys.argv[1]):
                single = codecs.lookup(codec).name not in ("gbk", "gb18030", "big5hkscs", "euc_jp", "iso2022_jp",
                                                           "cp932", "cp949", "utf-16-be", "utf-16-le", "utf-8")
                if single:
                    chars = []
                    for b in range(256):
                        try:
                            chars.append(bytes([b]).decode(codec))
                        except UnicodeDecodeError:
                            pass
                    text = "".join(ch for ch in chars if ch.encode(codec) and ch.encode(codec).decode(codec) == ch)
                else:
                    keep = []
                    # Known gap: glibc's Big5-HKSCS cannot read A15A, which Python reads as U+2574.
                    for ch in (c for c in pool if not (codec == "big5hkscs" and c == "\u2574")):
                        try:
                            if ch.encode(codec).decode(codec) == ch:
                                keep.append(ch)
                        except UnicodeError:
                            pass
                    text = "".join(keep)
                data = text.encode(codec)
                invalid = b""
                for b in range(256):
                    try:
                        (b"ab" + bytes([b]) + b"cd").decode(codec)
                    except UnicodeDecodeError:
                        invalid = b"ab" + bytes([b]) + b"cd"
                        break
                replaced = invalid.decode(codec, errors="replace") if invalid else ""
                try:
                    references = ("a\u2603b\U0001F600" + ("\u65e5" if "\u65e5" in text else "")).encode(codec, errors="xmlcharrefreplace").hex()
                except UnicodeError:
                    references = ""
                out[name] = {"text": text, "bytes": data.hex(), "invalid": invalid.hex(), "replaced": replaced,
                             "references": references}
            print(json.dumps(out))
            """#
        let names = try! JSONEncoder().encode(peers.map { [$0.0, $0.1] })
        let (status, output) = try! VenvPython.run(script, [String(decoding: names, as: UTF8.self)])
        precondition(status == 0, "python failed")
        return try! JSONDecoder().decode([String: Sample].self, from: Data(output.utf8))
    }()

    /// The lead bytes of windows-31J text.
    static func leadBytes(_ bytes: [UInt8]) -> [UInt8] {
        var leads: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isLead = (0x81...0x9F).contains(byte) || (0xE0...0xFC).contains(byte)
            if isLead { leads.append(byte) }
            index += isLead ? 2 : 1
        }
        return leads
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    @Test("decodes and encodes what Python's codec does", arguments: peers.map(\.0))
    func matchesPython(name: String) throws {
        let charset = try #require(Charset(name: name), "\(name) is not a label")
        #expect(charset.rawValue == name)
        let sample = try #require(Self.samples[name])
        #expect(sample.text.unicodeScalars.count > 60, "\(name): a sample of \(sample.text.unicodeScalars.count)")
        let data = Self.bytes(sample.bytes)
        let decoded = try charset.decode(data[...])
        if decoded != sample.text {
            let pairs = zip(decoded.unicodeScalars, sample.text.unicodeScalars).filter { $0.0 != $0.1 }.prefix(5)
            Issue.record(
                "\(name): decoded differently, first differences \(pairs.map { "\($0.0.escaped(asASCII: true))≠\($0.1.escaped(asASCII: true))" })"
            )
        }
        let encoded = try charset.encode(sample.text)
        if name == "shift_jis" {
            // The Standard writes a character of both the NEC-selected (0xED/0xEE) and the IBM
            // rows (0xFA–0xFC) with the IBM bytes; Python's cp932 prefers the NEC ones for
            // kanji. So: no NEC-selected bytes, and Python reads back the same text.
            #expect(!Self.leadBytes(encoded).contains { $0 == 0xED || $0 == 0xEE })
            let (status, output) = try VenvPython.run(
                "import sys; sys.stdout.write(bytes.fromhex(sys.argv[1]).decode('cp932'))", [Self.hex(encoded)])
            #expect(status == 0 && output == sample.text, "shift_jis: Python reads Satchel's bytes differently")
        } else {
            #expect(encoded == data, "\(name): encoded differently")
        }
        // The windows code pages' unassigned bytes are C1 controls in the Standard (Python refuses
        // them), and UTF-16 has no ASCII bytes to put around an invalid one.
        if !sample.invalid.isEmpty, !name.hasPrefix("windows-"), !name.hasPrefix("utf-16") {
            let invalid = Self.bytes(sample.invalid)
            let error = try #require(throws: SatchelError.self) { try charset.decode(invalid[...]) }
            #expect(error.code == .invalidEncoding && error.offset == 2, "\(name): \(error)")
            let replaced = try charset.decode(invalid[...], invalid: .replace)
            #expect(
                replaced.hasPrefix("ab") && replaced.hasSuffix("cd") && replaced.contains("\u{FFFD}"),
                "\(name): \(replaced)")
            if charset.rawValue.hasPrefix("iso-8859") || charset.rawValue.hasPrefix("windows") {
                #expect(replaced == sample.replaced, "\(name)")
            }
        }
        if !sample.references.isEmpty {
            let text = "a\u{2603}b\u{1F600}" + (sample.text.contains("\u{65E5}") ? "\u{65E5}" : "")
            #expect(
                try charset.encode(text, unencodable: .characterReference) == Self.bytes(sample.references), "\(name)")
        }
    }

    @Test("labels, names, unencodable characters, x-user-defined")
    func labelsAndErrors() throws {
        for (label, name) in [
            ("SJIS", "shift_jis"), ("windows-31j", "shift_jis"), (" gb2312 ", "gbk"), ("ks_c_5601-1987", "euc-kr"),
            ("latin2", "iso-8859-2"), ("cp1251", "windows-1251"), ("iso-8859-9", "windows-1254"),
            ("tis-620", "windows-874"),
            ("latin1", "iso-8859-1"), ("ascii", "us-ascii"), ("utf-16", "utf-16be"),
            ("x-mac-ukrainian", "x-mac-cyrillic"),
        ] {
            #expect(Charset(name: label)?.rawValue == name, "\(label)")
        }
        #expect(Charset(name: "ebcdic") == nil && Charset(name: "") == nil)
        #expect(Charset(rawValue: "shift_jis") == .shiftJIS)
        let snowman = try #require(throws: SatchelError.self) { try Charset.shiftJIS.encode("日本☃") }
        #expect(snowman.code == .unencodableValue && snowman.offset == 6 && snowman.message.contains("U+2603"))
        #expect(try Charset.shiftJIS.encode("a☃b", unencodable: .questionMark) == Array("a?b".utf8))
        #expect(
            try Charset.windows1251.encode("Ж☃", unencodable: .characterReference) == [0xC6] + Array("&#9731;".utf8))
        // The Standard's readings where Python's codecs differ: C1 controls for windows-1250's
        // unassigned 0x81, Shift_JIS's IBM extensions, EUC-JP's lone 0x80.
        #expect(try Charset.windows1250.decode([0x81]) == "\u{81}")
        #expect(try Charset.shiftJIS.encode("\u{FF02}\u{FF07}") == [0xFA, 0x57, 0xFA, 0x56])
        let lone = try #require(throws: SatchelError.self) {
            try Charset.eucJP.decode(Array("ab\u{80}".utf8.prefix(2)) + [0x80, 0x41])
        }
        #expect(lone.code == .invalidEncoding && lone.offset == 2)
        #expect(try Charset.big5.decode([0x41, 0x80, 0x42], invalid: .replace) == "A\u{FFFD}B")
        let latin = try #require(throws: SatchelError.self) { try Charset.isoLatin1.encode("€") }
        #expect(latin.code == .unencodableValue)
        #expect(try Charset.xUserDefined.decode([0x41, 0x80, 0xFF]) == "A\u{F780}\u{F7FF}")
        #expect(try Charset.xUserDefined.encode("A\u{F780}\u{F7FF}") == [0x41, 0x80, 0xFF])
        // A multi-byte sequence cut off at the end.
        let cut = try #require(throws: SatchelError.self) { try Charset.shiftJIS.decode([0x41, 0x93][...]) }
        #expect(cut.code == .invalidEncoding && cut.offset == 1)
        #expect(try Charset.shiftJIS.decode([0x41, 0x93][...], invalid: .replace) == "A\u{FFFD}")
    }
}
