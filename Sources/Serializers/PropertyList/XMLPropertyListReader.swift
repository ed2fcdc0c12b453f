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

/// Reads an XML property list into a ``Value`` with a small strict scanner (no XML library, so
/// no network, no external entities and nothing to expand).
///
/// Accepted: an optional UTF-8 byte order mark, XML declaration (UTF-8 or ASCII), comments,
/// processing instructions and a DOCTYPE without an internal subset; then one `<plist>` element
/// (version `1.0` when given) holding one value. Text may use the five predefined entities,
/// character references and CDATA sections; line ends are normalised to line feeds as XML
/// requires. Everything else is an error with its byte offset, line and column: unknown
/// elements, attributes outside `<plist>`, text between elements, a second value, trailing
/// content, DTD internal subsets and other entities, malformed integers, reals, dates or base64.
struct XMLPropertyListReader {
    let bytes: UnsafeRawBufferPointer
    let limits: Limits
    var position = 0
    /// The path to a failure, innermost first, collected while the error unwinds.
    var errorPath: [KeyPathComponent] = []
    /// The keys of the last dictionary read at each depth. Records in a list tend to have the
    /// same keys in the same order: the next dictionary at that depth reserves room for as many
    /// members, and a key whose bytes equal the hint's key at its position reuses that string
    /// instead of validating and building a new one.
    var keyHints: [[String]] = []

    /// The elements of the plist vocabulary.
    enum Element {
        case plist, dict, array, key, string, integer, real, date, data, `true`, `false`
    }

    /// Prepares to read `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Reads the whole document.
    /// - Throws: ``SatchelError`` with the byte offset, line, column and key path of the problem.
    mutating func read() throws(SatchelError) -> Value {
        do {
            try readProlog()
            let rootStart = position
            let plist = try readStartTag(allowingAttributes: true)
            guard element(named: plist.name) == .plist else {
                throw SatchelError(.syntaxError, "the root element must be <plist>", offset: rootStart)
            }
            if let version = plist.version, !bytes[version].elementsEqual("1.0".utf8) {
                throw SatchelError(
                    .unsupportedFormat,
                    "plist version '\(String(decoding: bytes[version], as: UTF8.self))' is not supported (only 1.0)",
                    offset: version.lowerBound)
            }
            guard !plist.isEmpty else {
                throw SatchelError(.syntaxError, "the <plist> element holds no value", offset: position)
            }
            let value = try readValue(depth: 0)
            skipMisc()
            guard starts(with: "</") else {
                throw SatchelError(.syntaxError, "a <plist> holds one value; found more content", offset: position)
            }
            try readEndTag(plist.name)
            skipMisc()
            guard position == bytes.count else {
                throw SatchelError(.syntaxError, "content after </plist>", offset: position)
            }
            return value
        } catch {
            // `readValue` recurses with untyped throws (small frames); it throws only SatchelErrors.
            var error = error as? SatchelError ?? SatchelError(.internal, "unexpected error: \(error)")
            if error.keyPath == nil && !errorPath.isEmpty {
                error.keyPath = KeyPathComponent.render(errorPath.reversed())
            }
            error.locate(offset: error.offset ?? position, in: bytes)
            throw error
        }
    }

    // MARK: Prolog

    private mutating func readProlog() throws(SatchelError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        skipWhiteSpace()
        if starts(with: "<?xml"), position + 5 < bytes.count, bytes[position + 5].isXMLWhiteSpace {
            try checkDeclaration()
        }
        while true {
            skipMisc()
            if starts(with: "<!DOCTYPE") {
                try skipDoctype()
            } else if starts(with: "<plist") {
                return
            } else if position == bytes.count {
                throw SatchelError(.truncatedInput, "the document has no <plist> element", offset: position)
            } else {
                throw SatchelError(.syntaxError, "the root element must be <plist>", offset: position)
            }
        }
    }

    /// Checks the declaration's encoding (UTF-8 or ASCII) and skips it.
    private mutating func checkDeclaration() throws(SatchelError) {
        let start = position
        guard let end = find("?>", from: position) else {
            throw SatchelError(.truncatedInput, "unterminated XML declaration", offset: start)
        }
        let declaration = String(decoding: bytes[start..<end], as: UTF8.self)
        if let range = declaration.firstRange(of: "encoding") {
            let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let name = rest.dropFirst().prefix { $0 != quote }.lowercased()
                guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(name) else {
                    throw SatchelError(
                        .unsupportedFormat, "encoding '\(name)' is not supported (only UTF-8)", offset: start)
                }
            }
        }
        position = end + 2
    }

    /// Skips `<!DOCTYPE …>`; an internal subset (`[…]`, where entities are declared) is refused.
    private mutating func skipDoctype() throws(SatchelError) {
        let start = position
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw SatchelError(
                    .unsupportedFormat, "a DOCTYPE with an internal subset (entity declarations) is not accepted",
                    offset: position - 1)
            } else if byte == UInt8(ascii: ">") {
                return
            }
        }
        throw SatchelError(.truncatedInput, "unterminated DOCTYPE", offset: start)
    }

    // MARK: Values

    // The recursive functions (readValue, readDictionary, readArray) throw untyped errors and
    // leave scalars and error messages to non-inlined helpers, so each level's stack frame stays
    // small and the default Limits.maxDepth fits a small thread stack.

    private mutating func readValue(depth: Int) throws -> Value {
        let tagStart = position
        let (tag, element) = try readValueStartTag()
        switch element {
        case .dict: return try readDictionary(tag, depth: depth, at: tagStart)
        case .array: return try readArray(tag, depth: depth, at: tagStart)
        default: return try readScalar(element, tag, at: tagStart)
        }
    }

    /// Skips to the next start tag and reads it; it must name a value element.
    @inline(never)
    private mutating func readValueStartTag() throws -> (StartTag, Element) {
        skipMisc()
        guard position < bytes.count else {
            throw SatchelError(.truncatedInput, "the document ends where a value was expected", offset: position)
        }
        guard bytes[position] == UInt8(ascii: "<") else {
            throw SatchelError(.syntaxError, "text where an element was expected", offset: position)
        }
        if starts(with: "</") {
            throw SatchelError(.syntaxError, "an end tag where a value was expected", offset: position)
        }
        let tagStart = position
        let tag = try readStartTag(allowingAttributes: false)
        switch element(named: tag.name) {
        case nil:
            throw SatchelError(
                .syntaxError, "unknown element <\(String(decoding: bytes[tag.name], as: UTF8.self))>", offset: tagStart)
        case .key:
            throw SatchelError(.syntaxError, "<key> outside a <dict>", offset: tagStart)
        case .plist:
            throw SatchelError(.syntaxError, "a <plist> inside a <plist>", offset: tagStart)
        case let element?:
            return (tag, element)
        }
    }

    @inline(never)
    private mutating func readScalar(_ element: Element, _ tag: StartTag, at tagStart: Int) throws -> Value {
        switch element {
        case .string: return .string(try readString(tag))
        case .integer: return try readInteger(tag, at: tagStart)
        case .real: return try readReal(tag, at: tagStart)
        case .date: return try readDate(tag, at: tagStart)
        case .data: return try readData(tag, at: tagStart)
        case .true, .false:
            if !tag.isEmpty {
                skipWhiteSpace()
                try readEndTag(tag.name)
            }
            return .bool(element == .true)
        case .dict, .array, .key, .plist:
            throw SatchelError(.internal, "readScalar called for a container", offset: tagStart)
        }
    }

    private mutating func readDictionary(_ tag: StartTag, depth: Int, at tagStart: Int) throws -> Value {
        try checkDepth(depth, at: tagStart)
        guard !tag.isEmpty else { return .object([:]) }
        while keyHints.count <= depth { keyHints.append([]) }
        let hints = keyHints[depth]
        var members = ValueObject(minimumCapacity: min(hints.count, limits.maxPairs))
        while let key = try readKeyOrEnd(of: tag, hint: members.count < hints.count ? hints[members.count] : nil) {
            do {
                let value = try readValue(depth: depth + 1)
                if members.updateValue(value, forKey: key) == nil && members.count > limits.maxPairs {
                    throw SatchelError.limitExceeded(
                        "maxPairs", limits.maxPairs, "a dictionary of more members", offset: position)
                }
            } catch {
                errorPath.append(.key(key))
                throw error
            }
        }
        keyHints[depth] = members.keys.elements
        return .object(members)
    }

    /// The next `<key>` of a dictionary (`hint` when its bytes are the same), or `nil` after
    /// reading the dictionary's end tag.
    @inline(never)
    private mutating func readKeyOrEnd(of tag: StartTag, hint: String?) throws -> String? {
        skipMisc()
        if starts(with: "</") {
            try readEndTag(tag.name)
            return nil
        }
        let keyStart = position
        guard position < bytes.count else {
            throw SatchelError(.truncatedInput, "the document ends inside a <dict>", offset: position)
        }
        guard bytes[position] == UInt8(ascii: "<") else {
            throw SatchelError(.syntaxError, "text inside a <dict>", offset: position)
        }
        let keyTag = try readStartTag(allowingAttributes: false)
        guard element(named: keyTag.name) == .key else {
            throw SatchelError(.syntaxError, "expected <key> in a <dict>", offset: keyStart)
        }
        return try readString(keyTag, hint: hint)
    }

    private mutating func readArray(_ tag: StartTag, depth: Int, at tagStart: Int) throws -> Value {
        try checkDepth(depth, at: tagStart)
        var elements: [Value] = []
        guard !tag.isEmpty else { return .array(elements) }
        while try !atEndTag(of: tag) {
            do {
                elements.append(try readValue(depth: depth + 1))
            } catch {
                errorPath.append(.index(elements.count))
                throw error
            }
        }
        return .array(elements)
    }

    /// Whether the container ends here (its end tag is then read).
    @inline(never)
    private mutating func atEndTag(of tag: StartTag) throws -> Bool {
        skipMisc()
        guard starts(with: "</") else { return false }
        try readEndTag(tag.name)
        return true
    }

    @inline(never)
    private func checkDepth(_ depth: Int, at offset: Int) throws {
        if depth >= limits.maxDepth {
            throw SatchelError.limitExceeded("maxDepth", limits.maxDepth, "nesting", offset: offset)
        }
    }

    private func element(named name: Range<Int>) -> Element? {
        let name = UnsafeRawBufferPointer(rebasing: bytes[name])
        func equals(_ literal: StaticString) -> Bool {
            guard let base = name.baseAddress else { return false }
            return memcmp(literal.utf8Start, base, name.count) == 0
        }
        switch name.count {
        case 3: return equals("key") ? .key : nil
        case 4:
            return equals("dict")
                ? .dict
                : equals("real")
                    ? .real : equals("date") ? .date : equals("data") ? .data : equals("true") ? .true : nil
        case 5: return equals("array") ? .array : equals("plist") ? .plist : equals("false") ? .false : nil
        case 6: return equals("string") ? .string : nil
        case 7: return equals("integer") ? .integer : nil
        default: return nil
        }
    }
}
