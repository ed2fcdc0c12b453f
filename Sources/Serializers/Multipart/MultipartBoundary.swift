// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// The boundary that separates the parts of a multipart body (RFC 2046 §5.1.1).
///
/// A boundary is 1 to 70 characters from RFC 2046's `bchars` — letters, digits and
/// `' ( ) + _ , - . / : = ?` and space — and does not end in a space. A random boundary
/// (``random()``) is `satchel-` followed by 32 hexadecimal digits: 128 bits from the system's
/// random number generator, made only of token characters so the Content-Type never needs to
/// quote it. An explicit boundary gives reproducible output; it is validated, and quoted in the
/// Content-Type only when it contains characters that are not token characters.
public struct MultipartBoundary: Sendable, Hashable, CustomStringConvertible {
    /// The boundary text, without the leading `--`.
    public let value: String

    /// The most characters a boundary may have (RFC 2046).
    public static let maximumLength = 70

    /// How many random bits a boundary made by ``random()`` carries.
    public static let randomBits = 128

    /// Validates an explicit boundary.
    ///
    /// - Parameter value: The boundary text, without the leading `--`.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when `value` is empty, longer than 70
    ///   characters, contains a character outside RFC 2046's `bchars` (the message names it and
    ///   its position) or ends in a space.
    public init(_ value: String) throws(SatchelError) {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty else {
            throw SatchelError(.invalidArgument, "a multipart boundary must not be empty")
        }
        guard bytes.count <= Self.maximumLength else {
            throw SatchelError(
                .invalidArgument,
                "a multipart boundary has at most \(Self.maximumLength) characters; this one has \(bytes.count)")
        }
        if let index = bytes.firstIndex(where: { !Self.isBoundaryCharacter($0) }) {
            throw SatchelError(
                .invalidArgument,
                "a multipart boundary cannot contain \(Self.describe(bytes[index])) (position \(index)); "
                    + "allowed are letters, digits, space and ' ( ) + _ , - . / : = ?",
                offset: index)
        }
        guard bytes.last != UInt8(ascii: " ") else {
            throw SatchelError(
                .invalidArgument, "a multipart boundary must not end in a space", offset: bytes.count - 1)
        }
        self.value = value
    }

    private init(unchecked value: String) {
        self.value = value
    }

    /// A new boundary with 128 random bits from `SystemRandomNumberGenerator`.
    public static func random() -> MultipartBoundary {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A new boundary with 128 random bits from `generator`: `satchel-` and 32 lower-case
    /// hexadecimal digits.
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> MultipartBoundary {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = Array("satchel-".utf8)
        for _ in 0..<(randomBits / 64) {
            var word = generator.next()
            for _ in 0..<16 {
                text.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return MultipartBoundary(unchecked: String(decoding: text, as: UTF8.self))
    }

    /// Whether `byte` is one of RFC 2046's `bchars` (space included).
    public static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        case UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "_"),
            UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: " "):
            true
        default:
            false
        }
    }

    /// The boundary text.
    public var description: String { value }

    /// The delimiter line's bytes without line breaks: `--` and the boundary.
    var dashedBytes: [UInt8] { Array("--\(value)".utf8) }

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}
