// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension XMLPropertyListReader {
    /// A start tag: the element name's bytes, whether it closed itself (`<dict/>`), and the
    /// value of a `version` attribute (on `<plist>` only).
    struct StartTag {
        var name: Range<Int>
        var isEmpty: Bool
        var version: Range<Int>?
    }

    /// The character data of an element: a range of the input when it needed no decoding, else
    /// the decoded bytes.
    enum Text {
        case input(Range<Int>)
        case decoded([UInt8])
    }

    // MARK: Tags

    /// Reads `<name …>` or `<name …/>` at `position`, which is at `<`.
    mutating func readStartTag(allowingAttributes: Bool) throws(SatchelError) -> StartTag {
        let tagStart = position
        position += 1
        let nameStart = position
        while position < bytes.count, bytes[position].isNameByte { position += 1 }
        guard position > nameStart else {
            throw SatchelError(.syntaxError, "expected an element name after '<'", offset: position)
        }
        var tag = StartTag(name: nameStart..<position, isEmpty: false, version: nil)
        while true {
            let spaced = skipWhiteSpace()
            guard position < bytes.count else {
                throw SatchelError(.truncatedInput, "unterminated start tag", offset: tagStart)
            }
            switch bytes[position] {
            case UInt8(ascii: ">"):
                position += 1
                return tag
            case UInt8(ascii: "/"):
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                    throw SatchelError(.syntaxError, "expected '>' after '/' in a tag", offset: position)
                }
                position += 2
                tag.isEmpty = true
                return tag
            default:
                guard spaced, allowingAttributes else {
                    throw SatchelError(
                        .syntaxError, "unexpected attribute or character in a start tag", offset: position)
                }
                let (name, value) = try readAttribute()
                if bytes[name].elementsEqual("version".utf8) { tag.version = value }
            }
        }
    }

    /// Reads `name = "value"` (or single quotes); returns both ranges.
    private mutating func readAttribute() throws(SatchelError) -> (Range<Int>, Range<Int>) {
        let nameStart = position
        while position < bytes.count, bytes[position].isNameByte { position += 1 }
        let name = nameStart..<position
        skipWhiteSpace()
        guard !name.isEmpty, position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
            throw SatchelError(.syntaxError, "malformed attribute", offset: nameStart)
        }
        position += 1
        skipWhiteSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
        else {
            throw SatchelError(.syntaxError, "an attribute value must be quoted", offset: position)
        }
        let quote = bytes[position]
        let valueStart = position + 1
        guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else {
            throw SatchelError(.truncatedInput, "unterminated attribute value", offset: position)
        }
        position = valueEnd + 1
        return (name, valueStart..<valueEnd)
    }

    /// Reads `</name>` (white space before `>` allowed) at `position`.
    mutating func readEndTag(_ name: Range<Int>) throws(SatchelError) {
        let start = position
        let nameStart = position + 2
        let nameEnd = nameStart + name.count
        guard starts(with: "</"), nameEnd <= bytes.count, let base = bytes.baseAddress,
            memcmp(base + nameStart, base + name.lowerBound, name.count) == 0,
            nameEnd == bytes.count || !bytes[nameEnd].isNameByte
        else {
            let found = position < bytes.count ? "different content" : "the end of the document"
            throw SatchelError(
                position < bytes.count ? .syntaxError : .truncatedInput,
                "expected </\(String(decoding: bytes[name], as: UTF8.self))>, found \(found)", offset: start)
        }
        position = nameEnd
        skipWhiteSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw SatchelError(.syntaxError, "expected '>' to close an end tag", offset: position)
        }
        position += 1
    }

    // MARK: Skipping

    /// Skips white space; returns whether there was any.
    @discardableResult
    mutating func skipWhiteSpace() -> Bool {
        let start = position
        while position < bytes.count, bytes[position].isXMLWhiteSpace { position += 1 }
        return position > start
    }

    /// Skips white space, comments and processing instructions. An unterminated one is left
    /// for the caller to report.
    mutating func skipMisc() {
        while true {
            skipWhiteSpace()
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "<"),
                bytes[position + 1] == UInt8(ascii: "!") || bytes[position + 1] == UInt8(ascii: "?")
            else { return }
            if starts(with: "<!--"), let end = find("-->", from: position + 4) {
                position = end + 3
            } else if starts(with: "<?"), let end = find("?>", from: position + 2) {
                position = end + 2
            } else {
                return
            }
        }
    }

    /// Whether the input continues with `literal` at `position`.
    @inline(__always)
    func starts(with literal: StaticString) -> Bool {
        // A byte loop, not memcmp: literals are short and this inlines to a few comparisons.
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let start = literal.utf8Start
        for index in 0..<count where bytes[position &+ index] != start[index] { return false }
        return true
    }

    /// The offset of the first `literal` at or after `start`.
    func find(_ literal: StaticString, from start: Int) -> Int? {
        let count = literal.utf8CodeUnitCount
        let first = literal.utf8Start.pointee
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index + count <= bytes.count {
            if bytes[index] == first && memcmp(literal.utf8Start, base + index, count) == 0 { return index }
            index += 1
        }
        return nil
    }
}

extension UInt8 {
    /// Whether the byte can be part of an XML name (ASCII letters, digits, `-_.:`, any non-ASCII).
    @inline(__always)
    var isNameByte: Bool {
        // Bit n of the masks is set when byte n (0-63, 64-127) may appear in a name.
        let digitsAndPunctuation: UInt64 = 0x07FF_6000_0000_0000  // - . 0-9 :
        let letters: UInt64 = 0x07FF_FFFE_87FF_FFFE  // A-Z _ a-z
        if self >= 0x80 { return true }
        let mask = self < 64 ? digitsAndPunctuation : letters
        return (mask >> UInt64(self & 63)) & 1 == 1
    }
}
