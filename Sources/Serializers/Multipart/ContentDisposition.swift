// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A parsed Content-Disposition header of a multipart part (RFC 7578 §4.2, RFC 6266).
///
/// `name` and `filename` values are read the way every common sender writes them, in one pass:
/// - RFC 9110 §5.6.4 escapes in a quoted value: `\\` is one backslash and `\"` one quote. A
///   backslash before any other character stays as it is, since old browsers send Windows paths
///   (`C:\Users\a.txt`) unescaped.
/// - The WHATWG HTML standard's escapes, in any value: `%22`, `%0D` and `%0A` stand for `"`, CR
///   and LF. `%` followed by anything else stays as it is.
///
/// This reads what werkzeug and python-multipart read; the one ambiguity is a name that really
/// contains the text `%22`, `%0D` or `%0A`, which a browser sends unescaped and which is read as
/// the character, as werkzeug does.
struct ContentDisposition: Sendable, Hashable {
    /// The disposition type in lower case, `form-data` in a form.
    var type: String
    /// The `name` parameter.
    var name: String?
    /// The `filename` parameter, unquoted; a path stays as it was sent.
    var filename: String?
    /// The `filename*` parameter (RFC 8187), decoded.
    var filenameStar: String?

    /// Parses a Content-Disposition value.
    ///
    /// - Throws: ``SatchelError`` whose offset is in `text`: a value outside the grammar, or, in
    ///   strict mode, a repeated `name`, `filename` or `filename*`, or a malformed `filename*`.
    init(parsing text: String, lenient: Bool) throws(SatchelError) {
        let parsed: (token: String, parameters: [RawHeaderParameter])
        do throws(SatchelError) {
            parsed = try parseParameterizedHeader(text, what: "Content-Disposition")
        } catch {
            // A WHATWG value may end with a backslash (`name="a\"`): read it without escapes.
            guard let plain = try? parseParameterizedHeader(text, what: "Content-Disposition", backslashEscapes: false)
            else {
                throw SatchelError(.syntaxError, error.message, offset: error.offset)
            }
            parsed = plain
        }
        type = parsed.token
        var seen: Set<String> = []
        for parameter in parsed.parameters where ["name", "filename", "filename*"].contains(parameter.name) {
            guard seen.insert(parameter.name).inserted else {
                if lenient { continue }
                throw SatchelError(
                    .syntaxError, "the parameter \"\(parameter.name)\" appears twice", offset: parameter.offset)
            }
            switch parameter.name {
            case "name":
                name = Self.unquote(parameter)
            case "filename":
                filename = Self.unquote(parameter)
            default:
                do throws(SatchelError) {
                    if parameter.isQuoted && !lenient {
                        throw SatchelError(
                            .syntaxError, "filename* must not be quoted (RFC 8187)", offset: parameter.offset)
                    }
                    filenameStar = try Self.decodeExtendedValue(parameter.value, offset: parameter.offset)
                } catch {
                    if !lenient { throw error }
                }
            }
        }
    }

    /// A parameter's value with its escapes undone (see ``ContentDisposition``).
    static func unquote(_ parameter: RawHeaderParameter) -> String {
        let value = Array(parameter.value.utf8)
        guard value.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "%") }) else {
            return parameter.value
        }
        var result: [UInt8] = []
        result.reserveCapacity(value.count)
        var index = 0
        while index < value.count {
            let byte = value[index]
            let next = index + 1 < value.count ? value[index + 1] : nil
            if byte == UInt8(ascii: "\\") && parameter.isQuoted
                && (next == UInt8(ascii: "\\") || next == UInt8(ascii: "\""))
            {
                result.append(next!)
                index += 2
            } else if byte == UInt8(ascii: "%"), index + 2 < value.count,
                let escaped = percentEscape(value[index + 1], value[index + 2])
            {
                result.append(escaped)
                index += 3
            } else {
                result.append(byte)
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The character `%XY` stands for in a WHATWG multipart header (`"`, CR, LF), or `nil`.
    private static func percentEscape(_ high: UInt8, _ low: UInt8) -> UInt8? {
        switch (high, low) {
        case (UInt8(ascii: "2"), UInt8(ascii: "2")): UInt8(ascii: "\"")
        case (UInt8(ascii: "0"), UInt8(ascii: "D")): 0x0D
        case (UInt8(ascii: "0"), UInt8(ascii: "A")): 0x0A
        default: nil
        }
    }

    /// Decodes an RFC 8187 `ext-value`: `charset'[language]'value-chars`, with charset UTF-8 or
    /// ISO-8859-1 (in any case).
    static func decodeExtendedValue(_ text: String, offset: Int) throws(SatchelError) -> String {
        let parts = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw SatchelError(.syntaxError, "filename* is not charset'language'value (RFC 8187)", offset: offset)
        }
        let charset = parts[0].lowercased()
        guard charset == "utf-8" || charset == "iso-8859-1" else {
            throw SatchelError(
                .syntaxError, "filename* has the charset \"\(parts[0])\" (UTF-8 or ISO-8859-1 expected)", offset: offset
            )
        }
        let encoded = Array(parts[2].utf8)
        let valueOffset = offset + parts[0].utf8.count + parts[1].utf8.count + 2
        var bytes: [UInt8] = []
        var index = 0
        while index < encoded.count {
            let byte = encoded[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < encoded.count, let high = hexValue(encoded[index + 1]),
                    let low = hexValue(encoded[index + 2])
                else {
                    throw SatchelError(
                        .syntaxError, "filename* has a malformed percent escape", offset: valueOffset + index)
                }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                guard isAttributeCharacter(byte) else {
                    throw SatchelError(
                        .syntaxError, "filename* has a character that must be percent-encoded (RFC 8187)",
                        offset: valueOffset + index)
                }
                bytes.append(byte)
                index += 1
            }
        }
        if charset == "iso-8859-1" {
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw SatchelError(
                .invalidEncoding, "filename* is not valid UTF-8 once percent-decoded", offset: valueOffset)
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `attr-char` of RFC 8187.
    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$&+-.^_`|~".utf8).contains(byte)
        }
    }
}
