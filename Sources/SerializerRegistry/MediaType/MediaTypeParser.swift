// SPDX-License-Identifier: Apache-2.0
/// The RFC 9110 grammar for media types, media ranges and parameters.
enum MediaTypeParser {
    /// `tchar` of RFC 9110 §5.6.2.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A value written as a token when it is one, else as a quoted-string.
    ///
    /// Control characters other than HTAB cannot appear in a quoted-string, even escaped; each is
    /// written as a space so that a value set in code can never split a header line.
    static func quotedIfNeeded(_ value: String) -> String {
        if !value.isEmpty && value.utf8.allSatisfy(isTokenCharacter) { return value }
        var quoted = "\""
        for character in value.unicodeScalars {
            if character == "\"" || character == "\\" { quoted += "\\" }
            if (character.value < 0x20 && character != "\t") || character.value == 0x7F {
                quoted += " "
            } else {
                quoted.unicodeScalars.append(character)
            }
        }
        return quoted + "\""
    }

    /// A cursor over header bytes; errors name the byte offset.
    struct Scanner {
        let bytes: [UInt8]
        var index = 0
        let what: String

        init(_ text: String, what: String) {
            self.bytes = Array(text.utf8)
            self.what = what
        }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[index] }

        func failure(_ message: String) -> SatchelError {
            let text = String(decoding: bytes, as: UTF8.self)
            return SatchelError(
                .invalidMediaType, "\(what) \(Value.string(text).canonicalJSON()): \(message)",
                offset: index)
        }

        mutating func skipWhitespace() {
            while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
            }
        }

        mutating func token(_ role: String) throws(SatchelError) -> String {
            let start = index
            while let byte = current, isTokenCharacter(byte) { index += 1 }
            guard index > start else {
                if let byte = current {
                    throw failure("expected \(role), found \(Self.describe(byte))")
                }
                throw failure("expected \(role), found the end")
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A token, also allowing `=` after its first character: Google's batch responses and
        /// JavaMail send boundaries such as `batch_pK7JBAk73-E=_AA5eFwv4m2Q=` unquoted, and a
        /// value cannot be mistaken for anything else there.
        mutating func unquotedValue(for name: String) throws(SatchelError) -> String {
            let start = index
            _ = try token("a value for parameter \"\(name)\"")
            while let byte = current, isTokenCharacter(byte) || byte == UInt8(ascii: "=") { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// An unquoted multipart boundary as senders write it: RFC 2046 allows `'()+_,-./:=?` and
        /// inner spaces in a boundary, which a header should quote but senders do not. The value
        /// runs to the end of the header or to the next `;` that starts a parameter (`; name=`),
        /// without trailing whitespace; it may hold any visible ASCII character, space and tab.
        /// Whether those characters make a valid boundary is the multipart reader's to decide.
        mutating func looseBoundaryValue() throws(SatchelError) -> String {
            let start = index
            var end = index
            while let byte = current {
                if byte == UInt8(ascii: ";") && startsParameter(after: index) { break }
                guard byte == 0x09 || (0x20...0x7E).contains(byte) else {
                    throw failure("\(Self.describe(byte)) is not allowed in an unquoted boundary")
                }
                index += 1
                if byte != 0x20 && byte != 0x09 { end = index }
            }
            guard end > start else { throw failure("expected a value for parameter \"boundary\"") }
            index = end
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }

        /// Whether `;` at `position` is followed by `OWS token "="`, the start of a parameter.
        private func startsParameter(after position: Int) -> Bool {
            var position = position + 1
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            let nameStart = position
            while position < bytes.count, isTokenCharacter(bytes[position]) { position += 1 }
            return position > nameStart && position < bytes.count && bytes[position] == UInt8(ascii: "=")
        }

        mutating func quotedString() throws(SatchelError) -> String {
            index += 1  // opening quote
            var value: [UInt8] = []
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: value, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = current, escaped == 0x09 || escaped >= 0x20, escaped != 0x7F else {
                        throw failure("a backslash in a quoted string must escape a visible character")
                    }
                    value.append(escaped)
                    index += 1
                case 0x09, 0x20...0x7E, 0x80...0xFF:
                    value.append(byte)
                default:
                    index -= 1
                    throw failure("\(Self.describe(byte)) is not allowed in a quoted string")
                }
            }
            throw failure("unterminated quoted string")
        }

        /// `type "/" subtype`, lower-cased.
        mutating func essence() throws(SatchelError) -> (String, String) {
            let type = try token("a type")
            guard current == UInt8(ascii: "/") else {
                guard let byte = current else { throw failure("missing \"/subtype\"") }
                throw failure("expected \"/\" after the type, found \(Self.describe(byte))")
            }
            index += 1
            let subtype = try token("a subtype")
            return (type, subtype)
        }

        /// `*( OWS ";" OWS [ parameter ] )`, stopping before `,` or the end.
        ///
        /// - Parameter looseBoundary: Read a `boundary` parameter as senders write it (see
        ///   ``looseBoundaryValue()``); for a `multipart/*` type.
        mutating func parameters(
            stopAtComma: Bool, looseBoundary: Bool = false
        ) throws(SatchelError)
            -> [MediaType.Parameter]
        {
            var valueOffsets: [Int] = []
            return try parameters(stopAtComma: stopAtComma, looseBoundary: looseBoundary, valueOffsets: &valueOffsets)
        }

        /// Parameters as above; `valueOffsets` receives the byte offset of each value.
        mutating func parameters(
            stopAtComma: Bool, looseBoundary: Bool = false, valueOffsets: inout [Int]
        ) throws(SatchelError) -> [MediaType.Parameter] {
            var parameters: [MediaType.Parameter] = []
            while true {
                skipWhitespace()
                guard let byte = current else { return parameters }
                if stopAtComma && byte == UInt8(ascii: ",") { return parameters }
                guard byte == UInt8(ascii: ";") else {
                    throw failure("expected \";\" before a parameter, found \(Self.describe(byte))")
                }
                index += 1
                skipWhitespace()
                guard let next = current, next != UInt8(ascii: ";"), !(stopAtComma && next == UInt8(ascii: ",")) else {
                    continue  // an empty parameter is allowed by the grammar
                }
                let nameStart = index
                let name = try token("a parameter name")
                let parameterName = name.lowercased()
                if parameters.contains(where: { $0.name == parameterName }) {
                    // Two boundaries (or charsets) let two readers see two different bodies.
                    index = nameStart
                    throw failure("parameter \"\(parameterName)\" appears twice (RFC 6838 §4.3)")
                }
                guard current == UInt8(ascii: "=") else {
                    throw failure("parameter \"\(name)\" has no \"=value\"")
                }
                index += 1
                let isLooseBoundary = looseBoundary && parameterName == "boundary"
                if isLooseBoundary { skipWhitespace() }
                valueOffsets.append(index)
                let value: String
                if current == UInt8(ascii: "\"") {
                    value = try quotedString()
                } else if isLooseBoundary {
                    value = try looseBoundaryValue()
                } else {
                    value = try unquotedValue(for: name)
                }
                parameters.append(MediaType.Parameter(name: name, value: value))
            }
        }

        static func describe(_ byte: UInt8) -> String {
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }
}

extension MediaType {
    /// Parses a media type such as a Content-Type value (RFC 9110 §8.3.1).
    ///
    /// Leading and trailing whitespace is ignored; empty parameters (`;;`) are allowed, as the
    /// grammar does. The `boundary` of a `multipart/*` type is read as senders write it: unquoted
    /// with RFC 2046's special characters (`boundary=abc'()+_,-./:=?`), up to the end or the
    /// next `;` that starts a parameter, with whitespace around it trimmed. Every other
    /// parameter follows the grammar strictly.
    /// - Throws: ``SatchelError/Code/invalidMediaType`` naming the byte offset, for an empty
    ///   text, a missing subtype, a parameter without a value, an unterminated quoted string or
    ///   any character outside the grammar.
    public init(parsing text: String) throws(SatchelError) {
        var scanner = MediaTypeParser.Scanner(text, what: "media type")
        scanner.skipWhitespace()
        guard !scanner.atEnd else { throw scanner.failure("the media type is empty") }
        let (type, subtype) = try scanner.essence()
        let parameters = try scanner.parameters(
            stopAtComma: false, looseBoundary: type.lowercased() == "multipart")
        self.init(type: type, subtype: subtype, parameters: parameters)
    }

    /// Parses a media type written in source code (`MediaType("application/json")`); `nil` if
    /// it is not valid.
    public init?(_ text: String) {
        guard let parsed = try? MediaType(parsing: text) else { return nil }
        self = parsed
    }
}

/// One parameter of a header value such as Content-Disposition, as it was written.
package struct RawHeaderParameter: Sendable, Hashable {
    /// The name, in lower case (`filename*` keeps its `*`).
    package var name: String
    /// The value as written: a token, or the text between the quotes of a quoted-string with
    /// every backslash left in place.
    package var value: String
    /// Whether the value was a quoted-string.
    package var isQuoted: Bool
    /// The byte offset of the value (its opening quote, if quoted) in the header text.
    package var offset: Int
}

/// Parses `token *( OWS ";" OWS [ parameter ] )`, the shape of Content-Disposition (RFC 6266),
/// keeping quoted values as written so that the caller decides how to unescape them (HTML forms
/// percent-encode `"`, CR and LF instead of using backslashes).
///
/// - Parameters:
///   - text: The header value. Leading and trailing whitespace is ignored.
///   - what: Names the header in error messages, such as `"Content-Disposition"`.
///   - backslashEscapes: Whether a backslash in a quoted-string escapes the next character
///     (RFC 9110), so that `\"` does not end the value. When `false`, the first `"` ends it.
/// - Returns: The leading token in lower case, and the parameters in order.
/// - Throws: ``SatchelError/Code/invalidMediaType`` naming the byte offset, for a missing token,
///   a parameter without `=value`, an unterminated quoted-string or a character outside the
///   grammar.
package func parseParameterizedHeader(
    _ text: String, what: String, backslashEscapes: Bool = true
) throws(SatchelError) -> (token: String, parameters: [RawHeaderParameter]) {
    var scanner = MediaTypeParser.Scanner(text, what: what)
    scanner.skipWhitespace()
    guard !scanner.atEnd else { throw scanner.failure("the value is empty") }
    let token = try scanner.token("a token").lowercased()
    var parameters: [RawHeaderParameter] = []
    while true {
        scanner.skipWhitespace()
        guard let byte = scanner.current else { return (token, parameters) }
        guard byte == UInt8(ascii: ";") else {
            throw scanner.failure("expected \";\" before a parameter, found \(MediaTypeParser.Scanner.describe(byte))")
        }
        scanner.index += 1
        scanner.skipWhitespace()
        guard let next = scanner.current, next != UInt8(ascii: ";") else { continue }
        let name = try scanner.token("a parameter name").lowercased()
        guard scanner.current == UInt8(ascii: "=") else {
            throw scanner.failure("parameter \"\(name)\" has no \"=value\"")
        }
        scanner.index += 1
        let offset = scanner.index
        if scanner.current == UInt8(ascii: "\"") {
            let value = try scanner.rawQuotedString(backslashEscapes: backslashEscapes)
            parameters.append(RawHeaderParameter(name: name, value: value, isQuoted: true, offset: offset))
        } else {
            let value = try scanner.token("a value for parameter \"\(name)\"")
            parameters.append(RawHeaderParameter(name: name, value: value, isQuoted: false, offset: offset))
        }
    }
}

extension MediaTypeParser.Scanner {
    /// The text between the quotes of a quoted-string, backslashes kept; with `backslashEscapes`
    /// a backslash makes the next character part of the value.
    mutating func rawQuotedString(backslashEscapes: Bool) throws(SatchelError) -> String {
        index += 1  // opening quote
        let start = index
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                let value = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 1
                return value
            case UInt8(ascii: "\\") where backslashEscapes:
                index += 1
                guard let escaped = current, escaped == 0x09 || escaped >= 0x20, escaped != 0x7F else {
                    throw failure("a backslash in a quoted string must escape a visible character")
                }
                index += 1
            case 0x09, 0x20...0x7E, 0x80...0xFF:
                index += 1
            default:
                throw failure("\(Self.describe(byte)) is not allowed in a quoted string")
            }
        }
        throw failure("unterminated quoted string")
    }
}
