// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Percent-encoding as AFNetworking applies it to query strings and form bodies.
///
/// Escaping keeps only `A-Z a-z 0-9 - . _ ~ / ?` (RFC 3986's query characters without the
/// general and sub-delimiters); every other UTF-8 byte becomes `%XX` with upper-case hex digits.
/// A space becomes `%20`, or `+` when asked.
package enum PercentEncoding {
    /// Whether `byte` is written as itself: `A-Z a-z 0-9 - . _ ~ / ?`.
    package static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    /// Escapes the UTF-8 bytes of `string`.
    ///
    /// - Parameters:
    ///   - string: The text to escape.
    ///   - spaceEncoding: How a space is written; `%20` by default.
    /// - Returns: ASCII text containing only allowed characters, `%XX` escapes and (for
    ///   ``FormWriter/SpaceEncoding/plus``) `+`.
    package static func escape(_ string: String, spaceEncoding: FormWriter.SpaceEncoding = .percent20) -> String {
        escape(bytes: string.utf8, spaceEncoding: spaceEncoding)
    }

    /// Escapes raw bytes, which need not be UTF-8.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to escape.
    ///   - spaceEncoding: How a space (0x20) is written; `%20` by default.
    /// - Returns: ASCII text containing only allowed characters, `%XX` escapes and (for
    ///   ``FormWriter/SpaceEncoding/plus``) `+`.
    package static func escape(
        bytes: some Sequence<UInt8>, spaceEncoding: FormWriter.SpaceEncoding = .percent20
    ) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount)
        append(escaping: bytes, spaceEncoding: spaceEncoding, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the escaped form of `bytes` to `output`.
    static func append(
        escaping bytes: some Sequence<UInt8>, spaceEncoding: FormWriter.SpaceEncoding, to output: inout [UInt8]
    ) {
        for byte in bytes {
            if isAllowed(byte) {
                output.append(byte)
            } else if byte == UInt8(ascii: " ") && spaceEncoding == .plus {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    // MARK: - Decoding

    /// Decodes `%XX` escapes and `+` (as a space) in `input[range]`.
    ///
    /// - Parameters:
    ///   - input: The whole input, so that errors carry absolute byte offsets.
    ///   - range: The bytes to decode (a key or a value).
    ///   - what: What the bytes are (`"key"`, `"value"`), for error messages.
    ///   - maxBytes: The most decoded bytes allowed (``Limits/maxStringBytes``).
    /// - Returns: The decoded bytes, not yet validated as UTF-8.
    /// - Throws: ``SatchelError/Code/syntaxError`` for a malformed escape, at the offset of its
    ///   `%`; ``SatchelError/Code/limitExceeded`` (`maxStringBytes`) as soon as the decoded bytes
    ///   exceed `maxBytes`, at the offset of the key or value.
    static func unescape(
        _ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, what: String, maxBytes: Int
    ) throws(SatchelError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(range.count, maxBytes))
        var index = range.lowerBound
        while index < range.upperBound {
            if output.count == maxBytes {
                throw SatchelError.limitExceeded(
                    "maxStringBytes", maxBytes, "a \(what) longer than \(maxBytes) bytes", offset: range.lowerBound)
            }
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "%"):
                guard index + 2 < range.upperBound else {
                    let escape = String(decoding: input[index..<range.upperBound], as: UTF8.self)
                    throw SatchelError(
                        .syntaxError, "incomplete percent escape \"\(escape)\" at the end of a \(what)", offset: index)
                }
                guard let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2]) else {
                    let escape = String(decoding: input[index..<index + 3], as: UTF8.self)
                    throw SatchelError(
                        .syntaxError,
                        "invalid percent escape \"\(escape)\" in a \(what) (expected two hexadecimal digits)",
                        offset: index)
                }
                output.append(high << 4 | low)
                index += 3
            case UInt8(ascii: "+"):
                output.append(UInt8(ascii: " "))
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The offset in `input` of the byte that decoded to position `decodedIndex` of the result
    /// of ``unescape(_:_:what:maxBytes:)`` over `range` (the `%` of an escape).
    static func rawOffset(ofDecoded decodedIndex: Int, in input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int
    {
        var index = range.lowerBound
        var decoded = 0
        while index < range.upperBound && decoded < decodedIndex {
            index += input[index] == UInt8(ascii: "%") ? 3 : 1
            decoded += 1
        }
        return min(index, range.upperBound)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
