// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A character encoding Satchel reads and writes text in: every encoding of the WHATWG Encoding
/// Standard — the Unicode encodings, the single-byte families (ISO-8859-*, windows-125*, KOI8,
/// IBM866, macintosh, x-mac-cyrillic), Chinese (GBK, gb18030, Big5), Japanese (EUC-JP,
/// ISO-2022-JP, Shift_JIS) and Korean (EUC-KR) — plus strict US-ASCII and ISO-8859-1.
///
/// Names are matched case-insensitively against the Encoding Standard's labels (`sjis`,
/// `gb2312`, `latin2`, `cp1251`, `ks_c_5601-1987`, …) and the IANA aliases Satchel always knew.
/// Where Satchel differs from the Standard it says so: `us-ascii` and `iso-8859-1` stay
/// themselves (the Standard reads both as windows-1252), and `utf-16` without a byte order mark
/// is big-endian (RFC 2781; the Standard says little-endian).
///
/// The Unicode encodings, US-ASCII, ISO-8859-1, windows-1252 and x-user-defined are converted
/// by Satchel itself; the single-byte encodings through a table built once from glibc's iconv
/// (byte by byte, so no decoder composes characters); the multi-byte ones through glibc's iconv
/// (Shift_JIS as windows-31J, EUC-KR as windows-949, Big5 with HKSCS, GBK read as gb18030, as
/// the Standard defines them).
public struct Charset: Sendable, Hashable, CustomStringConvertible {
    /// The encoding's name, lowercased, as the Encoding Standard spells it (`utf-8`,
    /// `shift_jis`, `windows-1251`); the `charset` Satchel writes.
    public let rawValue: String
    let engine: Engine

    /// How the bytes are converted.
    enum Engine: Sendable, Hashable {
        case utf8
        case utf16(bigEndian: Bool)
        case utf32(bigEndian: Bool)
        case ascii
        case latin1
        case windows1252
        case userDefined
        /// A single-byte encoding, its upper half read from iconv's converter of that name.
        case singleByte(iconv: String)
        /// A multi-byte encoding through iconv's converter of that name (`encoder` for writing,
        /// where it differs).
        case multiByte(iconv: String, encoder: String)
    }

    init(_ rawValue: String, _ engine: Engine) {
        self.rawValue = rawValue
        self.engine = engine
    }

    /// The charset's name: its ``rawValue``, such as `utf-8` or `windows-1251`.
    public var description: String { rawValue }

    // MARK: The encodings

    /// UTF-8 (RFC 3629).
    public static let utf8 = Charset("utf-8", .utf8)
    /// UTF-16, big-endian (RFC 2781).
    public static let utf16BigEndian = Charset("utf-16be", .utf16(bigEndian: true))
    /// UTF-16, little-endian (RFC 2781).
    public static let utf16LittleEndian = Charset("utf-16le", .utf16(bigEndian: false))
    /// UTF-32, big-endian.
    public static let utf32BigEndian = Charset("utf-32be", .utf32(bigEndian: true))
    /// UTF-32, little-endian.
    public static let utf32LittleEndian = Charset("utf-32le", .utf32(bigEndian: false))
    /// Strict 7-bit ASCII (a byte above 0x7F is invalid).
    public static let usASCII = Charset("us-ascii", .ascii)
    /// ISO-8859-1 as ISO defines it: byte N is U+00N.
    public static let isoLatin1 = Charset("iso-8859-1", .latin1)
    /// windows-1252, Western European: ISO-8859-1 with printable characters in most of 0x80–0x9F.
    public static let windows1252 = Charset("windows-1252", .windows1252)
    /// IBM866, DOS Cyrillic.
    public static let ibm866 = Charset("ibm866", .singleByte(iconv: "IBM866"))
    /// ISO-8859-2 (Latin-2), Central European.
    public static let iso8859_2 = Charset("iso-8859-2", .singleByte(iconv: "ISO-8859-2"))
    /// ISO-8859-3 (Latin-3), South European: Maltese and Esperanto.
    public static let iso8859_3 = Charset("iso-8859-3", .singleByte(iconv: "ISO-8859-3"))
    /// ISO-8859-4 (Latin-4), North European: Estonian, Latvian, Lithuanian and Sámi.
    public static let iso8859_4 = Charset("iso-8859-4", .singleByte(iconv: "ISO-8859-4"))
    /// ISO-8859-5, Cyrillic.
    public static let iso8859_5 = Charset("iso-8859-5", .singleByte(iconv: "ISO-8859-5"))
    /// ISO-8859-6, Arabic.
    public static let iso8859_6 = Charset("iso-8859-6", .singleByte(iconv: "ISO-8859-6"))
    /// ISO-8859-7, Greek.
    public static let iso8859_7 = Charset("iso-8859-7", .singleByte(iconv: "ISO-8859-7"))
    /// ISO-8859-8, Hebrew in visual order.
    public static let iso8859_8 = Charset("iso-8859-8", .singleByte(iconv: "ISO-8859-8"))
    /// ISO-8859-8 in logical order: the same bytes as ``iso8859_8``.
    public static let iso8859_8I = Charset("iso-8859-8-i", .singleByte(iconv: "ISO-8859-8"))
    /// ISO-8859-10 (Latin-6), Nordic.
    public static let iso8859_10 = Charset("iso-8859-10", .singleByte(iconv: "ISO-8859-10"))
    /// ISO-8859-13 (Latin-7), Baltic Rim.
    public static let iso8859_13 = Charset("iso-8859-13", .singleByte(iconv: "ISO-8859-13"))
    /// ISO-8859-14 (Latin-8), Celtic.
    public static let iso8859_14 = Charset("iso-8859-14", .singleByte(iconv: "ISO-8859-14"))
    /// ISO-8859-15 (Latin-9), Western European: ISO-8859-1 with the euro sign.
    public static let iso8859_15 = Charset("iso-8859-15", .singleByte(iconv: "ISO-8859-15"))
    /// ISO-8859-16 (Latin-10), South-Eastern European.
    public static let iso8859_16 = Charset("iso-8859-16", .singleByte(iconv: "ISO-8859-16"))
    /// KOI8-R, Russian Cyrillic (RFC 1489).
    public static let koi8R = Charset("koi8-r", .singleByte(iconv: "KOI8-R"))
    /// KOI8-U, Ukrainian Cyrillic (RFC 2319).
    public static let koi8U = Charset("koi8-u", .singleByte(iconv: "KOI8-U"))
    /// macintosh, Mac OS Roman.
    public static let macintosh = Charset("macintosh", .singleByte(iconv: "MACINTOSH"))
    /// windows-874, Thai.
    public static let windows874 = Charset("windows-874", .singleByte(iconv: "CP874"))
    /// windows-1250, Central European.
    public static let windows1250 = Charset("windows-1250", .singleByte(iconv: "CP1250"))
    /// windows-1251, Cyrillic.
    public static let windows1251 = Charset("windows-1251", .singleByte(iconv: "CP1251"))
    /// windows-1253, Greek.
    public static let windows1253 = Charset("windows-1253", .singleByte(iconv: "CP1253"))
    /// windows-1254, Turkish.
    public static let windows1254 = Charset("windows-1254", .singleByte(iconv: "CP1254"))
    /// windows-1255, Hebrew.
    public static let windows1255 = Charset("windows-1255", .singleByte(iconv: "CP1255"))
    /// windows-1256, Arabic.
    public static let windows1256 = Charset("windows-1256", .singleByte(iconv: "CP1256"))
    /// windows-1257, Baltic.
    public static let windows1257 = Charset("windows-1257", .singleByte(iconv: "CP1257"))
    /// windows-1258, Vietnamese.
    public static let windows1258 = Charset("windows-1258", .singleByte(iconv: "CP1258"))
    /// x-mac-cyrillic, Mac OS Cyrillic.
    public static let macCyrillic = Charset("x-mac-cyrillic", .singleByte(iconv: "MAC-CYRILLIC"))
    /// GBK: read as gb18030 (the Standard's GBK decoder is gb18030's), written as GBK.
    public static let gbk = Charset("gbk", .multiByte(iconv: "GB18030", encoder: "GBK"))
    /// GB 18030, Chinese: GBK extended to cover all of Unicode.
    public static let gb18030 = Charset("gb18030", .multiByte(iconv: "GB18030", encoder: "GB18030"))
    /// Big5 with the HKSCS extensions, as the Standard defines it.
    public static let big5 = Charset("big5", .multiByte(iconv: "BIG5-HKSCS", encoder: "BIG5-HKSCS"))
    /// EUC-JP, Japanese.
    public static let eucJP = Charset("euc-jp", .multiByte(iconv: "EUC-JP", encoder: "EUC-JP"))
    /// ISO-2022-JP, Japanese in 7 bits, switching character sets by escape sequences (RFC 1468).
    public static let iso2022JP = Charset("iso-2022-jp", .multiByte(iconv: "ISO-2022-JP", encoder: "ISO-2022-JP"))
    /// Shift_JIS as the Standard (and every browser) reads it: windows-31J.
    public static let shiftJIS = Charset("shift_jis", .multiByte(iconv: "WINDOWS-31J", encoder: "WINDOWS-31J"))
    /// EUC-KR as the Standard reads it: windows-949 (Unified Hangul Code).
    public static let eucKR = Charset("euc-kr", .multiByte(iconv: "CP949", encoder: "CP949"))
    /// Bytes 0x80–0xFF as U+F780–U+F7FF.
    public static let xUserDefined = Charset("x-user-defined", .userDefined)

    /// Every encoding, in the Encoding Standard's order.
    public static let allCases: [Charset] = [
        .utf8, .ibm866, .iso8859_2, .iso8859_3, .iso8859_4, .iso8859_5, .iso8859_6, .iso8859_7, .iso8859_8,
        .iso8859_8I, .iso8859_10, .iso8859_13, .iso8859_14, .iso8859_15, .iso8859_16, .koi8R, .koi8U, .macintosh,
        .windows874, .windows1250, .windows1251, .windows1252, .windows1253, .windows1254, .windows1255, .windows1256,
        .windows1257, .windows1258, .macCyrillic, .gbk, .gb18030, .big5, .eucJP, .iso2022JP, .shiftJIS, .eucKR,
        .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian, .usASCII, .isoLatin1,
        .xUserDefined,
    ]

    /// The charset named `name` (an Encoding Standard label or an IANA alias, any case, white
    /// space around it ignored), or `nil`.
    public init?(name: String) {
        let label = name.trimmingSpacesAndTabs.lowercased()
        guard let charset = Self.labels[label] else { return nil }
        self = charset
    }

    /// The charset whose ``rawValue`` is `rawValue`, or `nil`.
    public init?(rawValue: String) {
        guard let charset = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = charset
    }

    /// The byte order mark of this charset, if it has one.
    public var byteOrderMark: [UInt8]? {
        switch engine {
        case .utf8: [0xEF, 0xBB, 0xBF]
        case .utf16(let bigEndian): bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        case .utf32(let bigEndian): bigEndian ? [0x00, 0x00, 0xFE, 0xFF] : [0xFF, 0xFE, 0x00, 0x00]
        default: nil
        }
    }

    /// The charset whose byte order mark starts `bytes`, if any (UTF-32 little-endian is
    /// checked before UTF-16 little-endian, whose mark is its prefix).
    public static func byteOrderMark(of bytes: [UInt8]) -> Charset? {
        for charset in [Charset.utf8, .utf32LittleEndian, .utf32BigEndian, .utf16LittleEndian, .utf16BigEndian] {
            if let mark = charset.byteOrderMark, bytes.starts(with: mark) { return charset }
        }
        return nil
    }

    /// What to do with bytes that are not valid in the charset.
    public enum InvalidBytes: Sendable, Hashable {
        /// Fail with ``SatchelError/Code/invalidEncoding`` naming the offset (the default).
        case fail
        /// Put U+FFFD (�) in their place, as the Encoding Standard's decoders do.
        case replace
    }

    /// What to do with characters the charset cannot write.
    public enum UnencodableCharacters: Sendable, Hashable {
        /// Fail with ``SatchelError/Code/unencodableValue`` naming the character (the default).
        case fail
        /// Write `?` in their place.
        case questionMark
        /// Write `&#N;` (N in decimal) in their place, as browsers do when they submit a form in
        /// a legacy encoding.
        case characterReference
    }

    /// Decodes `bytes` (without a byte order mark) into a string.
    ///
    /// - Throws: With ``InvalidBytes/fail``, ``SatchelError/Code/invalidEncoding`` naming the
    ///   offset of the first byte that is not valid in this charset (a malformed UTF-8
    ///   sequence, a lone surrogate, a byte above 0x7F in US-ASCII, a byte a single-byte
    ///   encoding leaves undefined, a multi-byte sequence cut off at the end).
    /// - Complexity: O(n).
    public func decode(_ bytes: ArraySlice<UInt8>, invalid: InvalidBytes = .fail) throws(SatchelError) -> String {
        switch engine {
        case .utf8:
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            if invalid == .replace { return String(decoding: bytes, as: UTF8.self) }
            throw invalidBytes(at: Self.firstInvalidUTF8Offset(bytes))
        case .utf16(let bigEndian): return try decodeUTF16(bytes, bigEndian: bigEndian, invalid: invalid)
        case .utf32(let bigEndian): return try decodeUTF32(bytes, bigEndian: bigEndian, invalid: invalid)
        case .ascii:
            if let offset = bytes.firstIndex(where: { $0 >= 0x80 }) {
                guard invalid == .replace else { throw invalidBytes(at: offset - bytes.startIndex) }
                return String(String.UnicodeScalarView(bytes.lazy.map { $0 < 0x80 ? Unicode.Scalar($0) : "\u{FFFD}" }))
            }
            return String(decoding: bytes, as: UTF8.self)
        case .latin1:
            return String(String.UnicodeScalarView(bytes.lazy.map { Unicode.Scalar($0) }))
        case .windows1252:
            return String(String.UnicodeScalarView(bytes.lazy.map { Self.windows1252Scalar($0) }))
        case .userDefined:
            return String(
                String.UnicodeScalarView(
                    bytes.lazy.map { $0 < 0x80 ? Unicode.Scalar($0) : Unicode.Scalar(0xF780 + UInt32($0) - 0x80)! }))
        case .singleByte(let name):
            let table = try SingleByteTable.named(name, charset: self)
            var scalars = String.UnicodeScalarView()
            for (offset, byte) in bytes.enumerated() {
                if let scalar = table.scalar(byte) {
                    scalars.append(scalar)
                } else if invalid == .replace {
                    scalars.append("\u{FFFD}")
                } else {
                    throw invalidBytes(at: offset)
                }
            }
            return String(scalars)
        case .multiByte(let name, _):
            return try Iconv.decode(bytes, from: name, charset: self, invalid: invalid)
        }
    }

    /// Where glibc's single-byte tables differ from the Encoding Standard's indexes (and
    /// Python's codecs): Apple's later mappings, and the windows code pages' unassigned bytes,
    /// which the Standard reads as the C1 control of the same number.
    static func corrections(for charset: Charset) -> [UInt8: Unicode.Scalar] {
        switch charset.rawValue {
        case "macintosh": [0xC6: "\u{2206}", 0xF0: "\u{F8FF}"]
        case "x-mac-cyrillic": [0xFF: "\u{20AC}"]
        default: [:]
        }
    }

    /// Encodes `text` in this charset (without a byte order mark).
    ///
    /// - Throws: With ``UnencodableCharacters/fail``, ``SatchelError/Code/unencodableValue``
    ///   naming the first character the charset cannot write and its offset in the text's UTF-8.
    public func encode(
        _ text: String, unencodable: UnencodableCharacters = .fail
    ) throws(SatchelError) -> [UInt8] {
        switch engine {
        case .utf8: return Array(text.utf8)
        case .utf16(let bigEndian):
            return text.utf16.flatMap { unit in
                bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
        case .utf32(let bigEndian):
            return text.unicodeScalars.flatMap { scalar in
                let bytes = (0..<4).map { UInt8((scalar.value >> (8 * UInt32($0))) & 0xFF) }
                return bigEndian ? bytes.reversed() : bytes
            }
        case .multiByte(_, let name):
            return try Iconv.encode(text, to: name, charset: self, unencodable: unencodable)
        default:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            var offset = 0
            for scalar in text.unicodeScalars {
                if let byte = try singleByte(for: scalar) {
                    bytes.append(byte)
                } else {
                    bytes += try replacement(for: scalar, at: offset, unencodable)
                }
                offset += String(scalar).utf8.count
            }
            return bytes
        }
    }

    /// The byte of `scalar` in a single-byte charset, or `nil` when it has none.
    private func singleByte(for scalar: Unicode.Scalar) throws(SatchelError) -> UInt8? {
        switch engine {
        case .ascii: return scalar.value < 0x80 ? UInt8(scalar.value) : nil
        case .latin1: return scalar.value < 0x100 ? UInt8(scalar.value) : nil
        case .windows1252:
            if scalar.value < 0x80 || (0xA0..<0x100).contains(scalar.value) { return UInt8(scalar.value) }
            return Self.windows1252Reverse[scalar.value]
        case .userDefined:
            if scalar.value < 0x80 { return UInt8(scalar.value) }
            return (0xF780...0xF7FF).contains(scalar.value) ? UInt8(scalar.value - 0xF780 + 0x80) : nil
        case .singleByte(let name): return try SingleByteTable.named(name, charset: self).byte(scalar)
        default: return nil
        }
    }

    /// The bytes written in place of `scalar`, which the charset cannot write.
    func replacement(
        for scalar: Unicode.Scalar, at offset: Int, _ unencodable: UnencodableCharacters
    ) throws(SatchelError) -> [UInt8] {
        switch unencodable {
        case .fail:
            throw SatchelError(
                .unencodableValue,
                "U+\(String(scalar.value, radix: 16, uppercase: true)) cannot be written in \(rawValue)",
                offset: offset)
        case .questionMark: return [UInt8(ascii: "?")]
        case .characterReference: return Array("&#\(scalar.value);".utf8)
        }
    }

    func invalidBytes(at offset: Int) -> SatchelError {
        SatchelError(.invalidEncoding, "the text is not valid \(rawValue.uppercased())", offset: offset)
    }

    private func decodeUTF16(
        _ bytes: ArraySlice<UInt8>, bigEndian: Bool, invalid: InvalidBytes
    ) throws(SatchelError) -> String {
        if bytes.count % 2 != 0, invalid == .fail { throw invalidBytes(at: bytes.count - 1) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var scalars = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var parser = UTF16.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                scalars.append(UTF16.decode(encoded))
                offset += encoded.count * 2
            case .emptyInput:
                if bytes.count % 2 != 0 { scalars.append("\u{FFFD}") }
                return String(scalars)
            case .error(let length):
                guard invalid == .replace else { throw invalidBytes(at: offset) }
                scalars.append("\u{FFFD}")
                offset += length * 2
            }
        }
    }

    private func decodeUTF32(
        _ bytes: ArraySlice<UInt8>, bigEndian: Bool, invalid: InvalidBytes
    ) throws(SatchelError) -> String {
        if bytes.count % 4 != 0, invalid == .fail { throw invalidBytes(at: bytes.count - bytes.count % 4) }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index + 3 < bytes.endIndex {
            let b = (0..<4).map { UInt32(bytes[index + $0]) }
            let value =
                bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            if let scalar = Unicode.Scalar(value) {
                scalars.append(scalar)
            } else if invalid == .replace {
                scalars.append("\u{FFFD}")
            } else {
                throw invalidBytes(at: index - bytes.startIndex)
            }
            index += 4
        }
        if bytes.count % 4 != 0 { scalars.append("\u{FFFD}") }
        return String(scalars)
    }

    /// The offset of the first byte of the first invalid UTF-8 sequence in `bytes`.
    static func firstInvalidUTF8Offset(_ bytes: ArraySlice<UInt8>) -> Int {
        var iterator = bytes.makeIterator()
        var parser = UTF8.ForwardParser()
        var offset = 0
        while case .valid(let encoded) = parser.parseScalar(from: &iterator) {
            offset += encoded.count
        }
        return offset
    }

    /// windows-1252 as the WHATWG Encoding Standard maps it: ISO-8859-1 but for 0x80–0x9F.
    static func windows1252Scalar(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        return Unicode.Scalar(windows1252High[Int(byte - 0x80)]) ?? Unicode.Scalar(byte)
    }

    /// The scalars of windows-1252's bytes 0x80–0x9F.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
        0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D,
        0x017E, 0x0178,
    ]

    private static let windows1252Reverse: [UInt32: UInt8] = Dictionary(
        uniqueKeysWithValues: windows1252High.enumerated().map { ($0.element, UInt8(0x80 + $0.offset)) })
}
