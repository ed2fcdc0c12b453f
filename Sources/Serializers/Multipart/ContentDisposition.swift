import SerializerRegistry

/// A parsed Content-Disposition header of a multipart part (RFC 7578 §4.2, RFC 6266).
///
/// Quoted values are read the way HTML forms write them (WHATWG): `%22`, `%0D` and `%0A` stand
/// for `"`, CR and LF, and a backslash is an ordinary character. A value that contains `\"` was
/// written by an older client with RFC 9110 backslash escapes, and is unescaped instead. This is
/// the rule of Python's `multipart` package; `%` followed by anything else stays as it is.
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

    /// A parameter's value: WHATWG percent escapes, or RFC 9110 backslash escapes when the
    /// value has `\"`.
    static func unquote(_ parameter: RawHeaderParameter) -> String {
        let value = parameter.value
        if parameter.isQuoted && value.contains("\\\"") {
            var result = ""
            var escaping = false
            for character in value {
                if escaping {
                    if character != "\"" && character != "\\" { result.append("\\") }
                    result.append(character)
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else {
                    result.append(character)
                }
            }
            if escaping { result.append("\\") }
            return result
        }
        guard value.contains("%") else { return value }
        return value.replacing("%0D", with: "\r").replacing("%0A", with: "\n")
            .replacing("%22", with: "\"")
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
