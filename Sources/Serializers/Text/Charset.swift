import SerializerRegistry

/// A character encoding Satchel decodes text from: the Unicode encodings, US-ASCII,
/// ISO-8859-1 and windows-1252.
///
/// Names follow the IANA charset registry, matched case-insensitively with the common aliases
/// (`utf8`, `latin1`, `cp1252`, …).
public enum Charset: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16BigEndian = "utf-16be"
    case utf16LittleEndian = "utf-16le"
    case utf32BigEndian = "utf-32be"
    case utf32LittleEndian = "utf-32le"
    case usASCII = "us-ascii"
    case isoLatin1 = "iso-8859-1"
    case windows1252 = "windows-1252"

    /// The charset named `name` (an IANA name or a common alias, any case), or `nil`.
    ///
    /// `utf-16` and `utf-32` without an order mean big-endian (RFC 2781), unless a byte order
    /// mark says otherwise (see ``TextDecoding``).
    public init?(name: String) {
        switch name.lowercased() {
        case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
        case "utf-16be", "utf-16": self = .utf16BigEndian
        case "utf-16le": self = .utf16LittleEndian
        case "utf-32be", "utf-32": self = .utf32BigEndian
        case "utf-32le": self = .utf32LittleEndian
        case "us-ascii", "ascii", "iso646-us", "ansi_x3.4-1968": self = .usASCII
        case "iso-8859-1", "iso8859-1", "latin1", "l1", "iso_8859-1", "iso-ir-100", "cp819": self = .isoLatin1
        case "windows-1252", "cp1252", "x-cp1252": self = .windows1252
        default: return nil
        }
    }

    /// The byte order mark of this charset, if it has one.
    public var byteOrderMark: [UInt8]? {
        switch self {
        case .utf8: [0xEF, 0xBB, 0xBF]
        case .utf16BigEndian: [0xFE, 0xFF]
        case .utf16LittleEndian: [0xFF, 0xFE]
        case .utf32BigEndian: [0x00, 0x00, 0xFE, 0xFF]
        case .utf32LittleEndian: [0xFF, 0xFE, 0x00, 0x00]
        case .usASCII, .isoLatin1, .windows1252: nil
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

    /// Decodes `bytes` (without a byte order mark) into a string.
    ///
    /// - Throws: ``SatchelError/Code/invalidEncoding`` naming the offset of the first byte that
    ///   is not valid in this charset (a malformed UTF-8 sequence, a lone surrogate, a byte
    ///   above 0x7F in US-ASCII, a code unit cut off at the end).
    /// - Complexity: O(n).
    public func decode(_ bytes: ArraySlice<UInt8>) throws(SatchelError) -> String {
        switch self {
        case .utf8:
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            throw invalid(at: Self.firstInvalidUTF8Offset(bytes))
        case .utf16BigEndian, .utf16LittleEndian:
            return try decodeUTF16(bytes, bigEndian: self == .utf16BigEndian)
        case .utf32BigEndian, .utf32LittleEndian:
            return try decodeUTF32(bytes, bigEndian: self == .utf32BigEndian)
        case .usASCII:
            if let offset = bytes.firstIndex(where: { $0 >= 0x80 }) { throw invalid(at: offset - bytes.startIndex) }
            return String(decoding: bytes, as: UTF8.self)
        case .isoLatin1:
            return String(String.UnicodeScalarView(bytes.lazy.map { Unicode.Scalar($0) }))
        case .windows1252:
            return String(String.UnicodeScalarView(bytes.lazy.map { Self.windows1252Scalar($0) }))
        }
    }

    private func invalid(at offset: Int) -> SatchelError {
        SatchelError(.invalidEncoding, "the text is not valid \(rawValue.uppercased())", offset: offset)
    }

    private func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(SatchelError) -> String {
        guard bytes.count % 2 == 0 else { throw invalid(at: bytes.count - 1) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index < bytes.endIndex {
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
                return String(scalars)
            case .error:
                throw invalid(at: offset)
            }
        }
    }

    private func decodeUTF32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(SatchelError) -> String {
        guard bytes.count % 4 == 0 else { throw invalid(at: bytes.count - bytes.count % 4) }
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let b = (0..<4).map { UInt32(bytes[index + $0]) }
            let value =
                bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            guard let scalar = Unicode.Scalar(value) else { throw invalid(at: index - bytes.startIndex) }
            scalars.append(scalar)
            index += 4
        }
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
}
