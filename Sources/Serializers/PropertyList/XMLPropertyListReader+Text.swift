// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension XMLPropertyListReader {
    // MARK: Scalars

    /// The text of a `<string>` or `<key>`, checked against `Limits.maxStringBytes`; `hint`
    /// itself when the text has the same bytes.
    mutating func readString(_ tag: StartTag, hint: String? = nil) throws(SatchelError) -> String {
        guard !tag.isEmpty else { return "" }
        let start = position
        let text = try readText(of: tag)
        let string: String? = withBytes(of: text) { content in
            if var hint, hint.withUTF8({ Self.sameBytes(UnsafeRawBufferPointer($0), content) }) { return hint }
            return content.count > limits.maxStringBytes ? "" : PropertyListUTF8.string(content)
        }
        guard let string else { throw SatchelError(.invalidEncoding, "text that is not valid UTF-8", offset: start) }
        let length = withBytes(of: text) { $0.count }
        if length > limits.maxStringBytes {
            throw .limitExceeded("maxStringBytes", limits.maxStringBytes, "a string of \(length) bytes", offset: start)
        }
        return string
    }

    /// `<integer>`: decimal with an optional sign, or hexadecimal after `0x`; surrounding white
    /// space allowed. Beyond `Int64` and `UInt64` it is ``SatchelError/Code/numberOutOfRange``.
    mutating func readInteger(_ tag: StartTag, at tagStart: Int) throws(SatchelError) -> Value {
        let text = tag.isEmpty ? .decoded([]) : try readText(of: tag)
        let parsed: Value?? = withBytes(of: text) { content in
            var digits = Self.trimmed(content)
            let negative = digits.first == UInt8(ascii: "-")
            if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            var radix: UInt64 = 10
            if digits.count > 2, digits.first == UInt8(ascii: "0"),
                digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x")
            {
                radix = 16
                digits = digits.dropFirst(2)
            }
            guard !digits.isEmpty else { return .some(nil) }
            var magnitude: UInt64 = 0
            for byte in digits {
                let digit: UInt64
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
                    digit = UInt64(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
                    digit = UInt64(byte - UInt8(ascii: "A") + 10)
                default: return .some(nil)
                }
                let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
                let (next, overflow2) = shifted.addingReportingOverflow(digit)
                if overflow1 || overflow2 { return nil }
                magnitude = next
            }
            if !negative { return Value(magnitude) }
            if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
            return magnitude == UInt64(Int64.max) + 1 ? .integer(.min) : nil
        }
        switch parsed {
        case .some(.some(let value)): return value
        case .some(.none): throw SatchelError(.syntaxError, "malformed <integer>", offset: tagStart)
        case .none: throw SatchelError(.numberOutOfRange, "an <integer> outside Int64 and UInt64", offset: tagStart)
        }
    }

    /// `<real>`: any text Swift reads as a `Double` (`1.5`, `1e-5`, `nan`, `+infinity`).
    mutating func readReal(_ tag: StartTag, at tagStart: Int) throws(SatchelError) -> Value {
        let text = tag.isEmpty ? .decoded([]) : try readText(of: tag)
        let number: Double? = withBytes(of: text) { content in
            let digits = Self.trimmed(content)
            guard !digits.isEmpty, digits.count < 64 else { return nil }
            return Double(String(decoding: digits, as: UTF8.self))
        }
        guard let number else { throw SatchelError(.syntaxError, "malformed <real>", offset: tagStart) }
        return .double(number)
    }

    /// `<date>`: `YYYY-MM-DDTHH:MM:SSZ`.
    mutating func readDate(_ tag: StartTag, at tagStart: Int) throws(SatchelError) -> Value {
        let text = tag.isEmpty ? .decoded([]) : try readText(of: tag)
        let date = withBytes(of: text) {
            PropertyListDate.date(from: UnsafeRawBufferPointer(rebasing: Self.trimmed($0)))
        }
        guard let date else {
            throw SatchelError(.syntaxError, "malformed <date> (expected YYYY-MM-DDTHH:MM:SSZ)", offset: tagStart)
        }
        return .date(date)
    }

    /// `<data>`: base64 with white space anywhere, padded.
    mutating func readData(_ tag: StartTag, at tagStart: Int) throws(SatchelError) -> Value {
        let text = tag.isEmpty ? .decoded([]) : try readText(of: tag)
        let decoded = withBytes(of: text) { PropertyListBase64.decode($0) }
        guard let decoded else { throw SatchelError(.syntaxError, "<data> that is not base64", offset: tagStart) }
        return .bytes(decoded)
    }

    // MARK: Character data

    /// Reads the character data up to the element's end tag and the end tag itself: entities and
    /// character references decoded, CDATA sections taken as they are, comments skipped, line
    /// ends normalised. A child element, a stray `&` or a control character is an error.
    mutating func readText(of tag: StartTag) throws(SatchelError) -> Text {
        let start = position
        var decoded: [UInt8]?
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            // Letters and most text are above '<' (0x3C): one comparison. Below it, only '&' and
            // controls need more than a step.
            if byte > UInt8(ascii: "<") || byte >= 0x20 && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&") {
                position += 1
                continue
            }
            switch byte {
            case 0x09, 0x0A:
                position += 1
                continue
            case UInt8(ascii: "<"):
                if starts(with: "</") {
                    let text: Text
                    if var owned = decoded {
                        owned.append(contentsOf: bytes[runStart..<position])
                        text = .decoded(owned)
                    } else {
                        text = .input(start..<position)
                    }
                    try readEndTag(tag.name)
                    return text
                }
                decoded = (decoded ?? []) + bytes[runStart..<position]
                if starts(with: "<![CDATA[") {
                    guard let end = find("]]>", from: position + 9) else {
                        throw SatchelError(.truncatedInput, "unterminated CDATA section", offset: position)
                    }
                    appendNormalisingLineEnds(position + 9..<end, to: &decoded)
                    position = end + 3
                } else if starts(with: "<!--") {
                    guard let end = find("-->", from: position + 4) else {
                        throw SatchelError(.truncatedInput, "unterminated comment", offset: position)
                    }
                    position = end + 3
                } else {
                    throw SatchelError(.syntaxError, "an element inside text (mixed content)", offset: position)
                }
            case UInt8(ascii: "&"):
                decoded = (decoded ?? []) + bytes[runStart..<position]
                try appendReference(to: &decoded)
            case 0x0D:
                decoded = (decoded ?? []) + bytes[runStart..<position]
                decoded?.append(0x0A)
                position += 1
                if position < bytes.count && bytes[position] == 0x0A { position += 1 }
            default:
                throw SatchelError(
                    .syntaxError, "control character U+\(String(byte, radix: 16, uppercase: true)) in text",
                    offset: position)
            }
            runStart = position
        }
        throw SatchelError(.truncatedInput, "the document ends inside an element's text", offset: start)
    }

    private func appendNormalisingLineEnds(_ range: Range<Int>, to output: inout [UInt8]?) {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            index += 1
            if byte == 0x0D {
                output?.append(0x0A)
                if index < range.upperBound && bytes[index] == 0x0A { index += 1 }
            } else {
                output?.append(byte)
            }
        }
    }

    /// Decodes `&name;`, `&#N;` or `&#xH;` at `position`.
    private mutating func appendReference(to output: inout [UInt8]?) throws(SatchelError) {
        let start = position
        guard let end = bytes[position..<min(bytes.count, position + 12)].firstIndex(of: UInt8(ascii: ";")) else {
            throw SatchelError(.syntaxError, "'&' that does not start an entity or character reference", offset: start)
        }
        let name = bytes[(position + 1)..<end]
        position = end + 1
        switch String(decoding: name, as: UTF8.self) {
        case "amp": output?.append(UInt8(ascii: "&"))
        case "lt": output?.append(UInt8(ascii: "<"))
        case "gt": output?.append(UInt8(ascii: ">"))
        case "quot": output?.append(UInt8(ascii: "\""))
        case "apos": output?.append(UInt8(ascii: "'"))
        case let reference where reference.hasPrefix("#"):
            let hex = reference.hasPrefix("#x")
            let digits = reference.dropFirst(hex ? 2 : 1)
            guard let code = UInt32(digits, radix: hex ? 16 : 10), digits.allSatisfy(\.isHexDigit),
                let scalar = Unicode.Scalar(code), scalar.isXMLCharacter
            else {
                throw SatchelError(
                    .syntaxError, "character reference &\(reference); is not an XML character", offset: start)
            }
            output?.append(contentsOf: String(Character(scalar)).utf8)
        case let other:
            throw SatchelError(
                .syntaxError,
                "unknown entity &\(other); (only the five predefined entities; DTD entities are not supported)",
                offset: start)
        }
    }

    /// Calls `body` with the bytes of `text`.
    func withBytes<Result>(of text: Text, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        switch text {
        case .input(let range): body(UnsafeRawBufferPointer(rebasing: bytes[range]))
        case .decoded(let owned): owned.withUnsafeBytes(body)
        }
    }

    /// Whether `a` and `b` hold the same bytes.
    static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let first = a.baseAddress, let second = b.baseAddress else { return true }
        return memcmp(first, second, a.count) == 0
    }

    /// `content` without leading and trailing XML white space.
    static func trimmed(_ content: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer> {
        var start = 0
        var end = content.count
        while start < end, content[start].isXMLWhiteSpace { start += 1 }
        while end > start, content[end - 1].isXMLWhiteSpace { end -= 1 }
        return content[start..<end]
    }
}

extension Unicode.Scalar {
    /// Whether XML 1.0 allows the scalar in a document (`Char` production).
    var isXMLCharacter: Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
