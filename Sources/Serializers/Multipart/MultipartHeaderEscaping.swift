// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// How the multipart builder writes part headers so that no name, file name or header value can
/// end a header line or a quoted parameter early.
///
/// - Field names and file names go in quoted strings written as browsers, curl (since 7.81) and
///   urllib3 write them: a quote is `%22`, CR `%0D` and LF `%0A` (the WHATWG HTML standard's
///   form encoding), and so are the other control characters (below 0x20, and 0x7F) as `%XX`.
///   A backslash is `\\`, as urllib3 writes it: browsers leave it alone, which makes a name
///   ending in a backslash, or holding two, read differently by every server that follows
///   RFC 9110 §5.6.4's quoted-pairs (werkzeug and python-multipart among them); the parser reads
///   both forms (see `ContentDisposition`). Everything else, non-ASCII characters included, is
///   written as it is.
/// - A file name with non-ASCII characters gets an ASCII fallback in `filename=`, in which every
///   character that is not ASCII is replaced by `_` (no transliteration: it would need locale
///   tables and still guess), and the exact name in an RFC 8187 `filename*=UTF-8''…` parameter.
/// - Custom header names must be tokens (RFC 9110 §5.6.2) and their values must not contain
///   control characters other than horizontal tab.
package enum MultipartHeaderEscaping {
    /// `text` escaped for a quoted `name="…"` or `filename="…"` parameter (without the quotes).
    package static func escapeQuoted(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\\") {
                output.append(byte)
                output.append(byte)
            } else if byte == UInt8(ascii: "\"") || byte < 0x20 || byte == 0x7F {
                appendPercentEscape(byte, to: &output)
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The ASCII fallback of a file name: each character that is not ASCII replaced by `_`,
    /// then escaped as ``escapeQuoted(_:)`` does.
    package static func asciiFallback(_ filename: String) -> String {
        var ascii = ""
        for character in filename {
            if character.unicodeScalars.allSatisfy(\.isASCII) {
                ascii.unicodeScalars.append(contentsOf: character.unicodeScalars)
            } else {
                ascii.append("_")
            }
        }
        return escapeQuoted(ascii)
    }

    /// Whether `text` has characters outside ASCII, and so needs a `filename*` parameter.
    package static func needsExtendedValue(_ text: String) -> Bool {
        !text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// An RFC 8187 `ext-value` for `text`: `UTF-8''` followed by its UTF-8 bytes, each byte
    /// outside `attr-char` (letters, digits, the grave accent and `! # $ & + - . ^ _ | ~`)
    /// written as `%XX`.
    package static func extendedValue(_ text: String) -> String {
        var output: [UInt8] = Array("UTF-8''".utf8)
        for byte in text.utf8 {
            if isAttributeCharacter(byte) {
                output.append(byte)
            } else {
                appendPercentEscape(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `byte` is an RFC 8187 `attr-char`.
    package static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `text` is a non-empty RFC 9110 token (a valid header or parameter name).
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    /// Whether `byte` is an RFC 9110 `tchar`.
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A Content-Disposition value: `type`, then `name="…"`, then `filename="…"` and, for a
    /// non-ASCII file name, `filename*=UTF-8''…`.
    ///
    /// - Parameters:
    ///   - type: The disposition type, such as `form-data`; must be a token.
    ///   - name: The field name, or `nil` for none.
    ///   - filename: The file name, or `nil` for none.
    package static func contentDisposition(type: String, name: String?, filename: String?) -> String {
        var value = type
        if let name {
            value += "; name=\"\(escapeQuoted(name))\""
        }
        if let filename {
            if needsExtendedValue(filename) {
                value += "; filename=\"\(asciiFallback(filename))\"; filename*=\(extendedValue(filename))"
            } else {
                value += "; filename=\"\(escapeQuoted(filename))\""
            }
        }
        return value
    }

    /// The first byte of `value` that cannot appear in a header value: a control character other
    /// than horizontal tab (CR and LF included), or `nil` when there is none.
    package static func firstForbiddenByte(inHeaderValue value: String) -> (offset: Int, byte: UInt8)? {
        for (offset, byte) in value.utf8.enumerated() where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            return (offset, byte)
        }
        return nil
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendPercentEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }
}
