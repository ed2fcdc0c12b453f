// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// An index of a whole, valid JSON text: one entry per value and per member name, in document
/// order, each pointing into the text. The typed decoder (``JSONModelDecoder``) reads from it
/// without building a tree: it converts only the values a model asks for.
///
/// ``JSONTapeScanner`` builds it in one pass over the text. It accepts exactly what
/// ``JSONLexer`` accepts; where it cannot decide alone (a `\u0000` in a member name, a string
/// whose escapes may bring it under the length limit) it asks for the lexer's verdict, and it never
/// explains a refusal: the lexer, run over the same text, gives the error with its position.
struct JSONTape: Sendable {
    /// What an entry holds.
    enum Kind: UInt8 {
        case null, `false`, `true`, number, string, array, object
    }

    /// One value or member name.
    struct Entry: Sendable {
        /// Byte offset of the string's content (after the quote), the number's first byte, or the
        /// container's opening bracket.
        var start: UInt32
        /// The string's raw content length, the number's length, or the container's count of
        /// elements or members.
        var length: UInt32
        /// The index of the entry after this value (after a container's last descendant).
        var next: UInt32
        var kind: Kind
        var flags: UInt8
    }

    /// ``Entry/flags`` of a string: it contains a backslash escape.
    static let escaped: UInt8 = 1
    /// ``Entry/flags`` of a number: it has a fraction or an exponent.
    static let fractional: UInt8 = 1
    /// ``Entry/flags`` of a number: an integer outside both 64-bit ranges.
    static let big: UInt8 = 2

    /// The scalar a surrogate pair of `\u` escapes stands for.
    static func scalar(high: UInt32, low: UInt32) -> UInt32 {
        0x10000 + ((high & 0x3FF) << 10) + (low & 0x3FF)
    }

    /// Appends the UTF-8 bytes of the scalar an escape stands for (the scanner and the lexer
    /// refuse lone surrogates, so it always is one).
    static func appendUTF8(of scalar: UInt32, to output: inout [UInt8]) {
        UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { output.append($0) }
    }

    /// The UTF-16 code unit of the four hexadecimal digits of a `\u` escape at `offset`, or `nil`
    /// when there are not four of them there.
    static func codeUnit(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset >= 0, offset &+ 4 <= text.count else { return nil }
        var unit: UInt32 = 0
        for position in offset..<(offset &+ 4) {
            guard let digit = JSONLexer.hexValue(text[position]) else { return nil }
            unit = unit << 4 | digit
        }
        return unit
    }

    /// The entries; the document's value is the first.
    var entries: [Entry] = []
    /// Whether the lexer must confirm the text before the tape is used.
    var needsLexerVerdict = false
    /// The scanner's stacks of open containers, kept with their capacity for the next scan.
    fileprivate var open: [UInt32] = []
    fileprivate var counts: [UInt32] = []
}

/// Builds a ``JSONTape`` in one strict pass over a whole text.
struct JSONTapeScanner {
    let options: JSONReadingOptions
    let maxDepth: Int
    let maxStringBytes: Int

    init(options: JSONReadingOptions, limits: Limits) {
        self.options = options
        self.maxDepth = max(0, min(limits.maxDepth, JSONReadingOptions.maximumSupportedDepth))
        self.maxStringBytes = limits.maxStringBytes
    }

    /// The largest text the tape's 32-bit offsets can index.
    static let maximumLength = Int(UInt32.max) - 1

    /// Scans `text` into `tape`, reusing the capacity of its arrays (a stream of records pays for
    /// their memory once); `false` when the text is not valid JSON under the options and limits
    /// (or longer than ``maximumLength``).
    func scan(_ text: UnsafeBufferPointer<UInt8>, into tape: inout JSONTape) -> Bool {
        guard text.count <= Self.maximumLength, let base = text.baseAddress else { return false }
        var run = Run(base: base, count: text.count, scanner: self)
        swap(&run.entries, &tape.entries)
        swap(&run.open, &tape.open)
        swap(&run.counts, &tape.counts)
        run.entries.removeAll(keepingCapacity: true)
        run.open.removeAll(keepingCapacity: true)
        run.counts.removeAll(keepingCapacity: true)
        run.entries.reserveCapacity(text.count / 6 + 8)
        let scanned = run.scanDocument()
        swap(&run.entries, &tape.entries)
        swap(&run.open, &tape.open)
        swap(&run.counts, &tape.counts)
        tape.needsLexerVerdict = run.needsLexerVerdict
        return scanned
    }

    /// One pass: the cursor, the entries so far and the open containers.
    private struct Run {
        let base: UnsafePointer<UInt8>
        let count: Int
        let scanner: JSONTapeScanner
        var index = 0
        var entries: [JSONTape.Entry] = []
        var needsLexerVerdict = false
        /// Open containers: the entry index and, in the high bit, whether it is an object.
        var open: [UInt32] = []
        var counts: [UInt32] = []

        init(base: UnsafePointer<UInt8>, count: Int, scanner: JSONTapeScanner) {
            self.base = base
            self.count = count
            self.scanner = scanner
        }

        @inline(__always)
        mutating func skipWhiteSpace() {
            while index < count {
                let byte = base[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index &+= 1
            }
        }

        @inline(__always)
        func byte() -> UInt8 { index < count ? base[index] : 0 }

        mutating func scanDocument() -> Bool {
            if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { index = 3 }
            skipWhiteSpace()
            let first = byte()
            if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && !scanner.options.allowsTopLevelScalars {
                return false
            }
            guard scanValues() else { return false }
            skipWhiteSpace()
            return index == count
        }

        /// Scans one value and, when it opens containers, everything up to their end.
        mutating func scanValues() -> Bool {
            while true {
                // A value is expected at `index` (white space skipped).
                switch byte() {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = byte() == UInt8(ascii: "{")
                    guard open.count < scanner.maxDepth else { return false }
                    open.append(UInt32(entries.count) | (isObject ? 0x8000_0000 : 0))
                    counts.append(0)
                    entries.append(
                        JSONTape.Entry(
                            start: UInt32(index), length: 0, next: 0, kind: isObject ? .object : .array, flags: 0))
                    index &+= 1
                    skipWhiteSpace()
                    let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if byte() == closing {
                        index &+= 1
                        closeContainer()
                    } else {
                        counts[counts.count - 1] = 1
                        if isObject {
                            guard scanMemberName() else { return false }
                        }
                        continue
                    }
                case UInt8(ascii: "\""):
                    index &+= 1
                    guard scanString(isName: false) else { return false }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard scanNumber() else { return false }
                case UInt8(ascii: "t"):
                    guard literal(0x6575_7274, length: 4, kind: .true) else { return false }
                case UInt8(ascii: "f"):
                    guard literal(0x736C_6166, length: 5, kind: .false), byte() == UInt8(ascii: "e") else {
                        return false
                    }
                    index &+= 1
                case UInt8(ascii: "n"):
                    guard literal(0x6C6C_756E, length: 4, kind: .null) else { return false }
                default:
                    return false
                }
                // After a value: close containers or go on to the next element or member.
                while true {
                    guard let top = open.last else { return true }
                    skipWhiteSpace()
                    let isObject = top & 0x8000_0000 != 0
                    let next = byte()
                    if next == UInt8(ascii: ",") {
                        index &+= 1
                        skipWhiteSpace()
                        counts[counts.count - 1] &+= 1
                        if isObject {
                            guard scanMemberName() else { return false }
                        }
                        break
                    }
                    guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                    index &+= 1
                    closeContainer()
                }
            }
        }

        mutating func closeContainer() {
            let top = open.removeLast()
            let entry = Int(top & 0x7FFF_FFFF)
            entries[entry].length = counts.removeLast()
            entries[entry].next = UInt32(entries.count)
        }

        /// A member name, the colon and the white space before the value.
        mutating func scanMemberName() -> Bool {
            guard byte() == UInt8(ascii: "\"") else { return false }
            index &+= 1
            guard scanString(isName: true) else { return false }
            skipWhiteSpace()
            guard byte() == UInt8(ascii: ":") else { return false }
            index &+= 1
            skipWhiteSpace()
            return true
        }

        /// A literal whose first four bytes, little-endian, are `word`.
        @inline(__always)
        mutating func literal(_ word: UInt32, length: Int, kind: JSONTape.Kind) -> Bool {
            guard index &+ 4 <= count, UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self) == word else {
                return false
            }
            entries.append(
                JSONTape.Entry(
                    start: UInt32(index), length: UInt32(length), next: UInt32(entries.count + 1), kind: kind, flags: 0)
            )
            index &+= 4
            return true
        }

        /// A string whose opening quote is just before `index`.
        mutating func scanString(isName: Bool) -> Bool {
            let start = index
            var flags: UInt8 = 0
            while true {
                while index &+ 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if JSONLexer.hasSpecialByte(word) { break }
                    index &+= 8
                }
                guard index < count else { return false }
                let byte = base[index]
                if byte == UInt8(ascii: "\"") { break }
                if byte >= 0x80 {
                    let length = JSONLexer.validSequenceLength(base + index, available: count &- index)
                    guard length > 0 else { return false }
                    index &+= length
                } else if byte == UInt8(ascii: "\\") {
                    flags = JSONTape.escaped
                    guard scanEscape(isName: isName) else { return false }
                } else if byte < 0x20 {
                    return false
                } else {
                    index &+= 1
                }
            }
            let length = index &- start
            // The lexer counts an escape as the bytes it stands for: only it can tell whether an
            // escaped string over the limit in raw bytes is within it.
            if length > scanner.maxStringBytes {
                guard flags == JSONTape.escaped else { return false }
                needsLexerVerdict = true
            }
            entries.append(
                JSONTape.Entry(
                    start: UInt32(start), length: UInt32(length), next: UInt32(entries.count + 1), kind: .string,
                    flags: flags))
            index &+= 1
            return true
        }

        /// An escape whose backslash is at `index`.
        mutating func scanEscape(isName: Bool) -> Bool {
            guard index &+ 1 < count else { return false }
            switch base[index &+ 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index &+= 2
                return true
            case UInt8(ascii: "u"):
                guard let unit = hex4(at: index &+ 2) else { return false }
                index &+= 6
                if (0xD800...0xDBFF).contains(unit) {
                    guard index &+ 1 < count, base[index] == UInt8(ascii: "\\"), base[index &+ 1] == UInt8(ascii: "u"),
                        let low = hex4(at: index &+ 2), (0xDC00...0xDFFF).contains(low)
                    else { return false }
                    index &+= 6
                } else if (0xDC00...0xDFFF).contains(unit) {
                    return false
                } else if unit == 0 && isName {
                    // json-c cannot hold U+0000 in a name; the lexer decides whether the
                    // document's names stay unambiguous.
                    needsLexerVerdict = true
                }
                return true
            default:
                return false
            }
        }

        func hex4(at offset: Int) -> UInt32? {
            JSONTape.codeUnit(UnsafeBufferPointer(start: base, count: count), at: offset)
        }

        /// A number starting at `index`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func scanNumber() -> Bool {
            let start = index
            let negative = base[index] == UInt8(ascii: "-")
            if negative { index &+= 1 }
            let digitsStart = index
            guard index < count, base[index] &- UInt8(ascii: "0") < 10 else { return false }
            if base[index] == UInt8(ascii: "0") {
                index &+= 1
            } else {
                while index < count && base[index] &- UInt8(ascii: "0") < 10 { index &+= 1 }
            }
            let integerDigits = index &- digitsStart
            var flags: UInt8 = 0
            if index < count && base[index] == UInt8(ascii: ".") {
                flags = JSONTape.fractional
                index &+= 1
                guard index < count, base[index] &- UInt8(ascii: "0") < 10 else { return false }
                while index < count && base[index] &- UInt8(ascii: "0") < 10 { index &+= 1 }
            }
            if index < count && (base[index] | 0x20) == UInt8(ascii: "e") {
                flags = JSONTape.fractional
                index &+= 1
                if index < count && (base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-")) {
                    index &+= 1
                }
                guard index < count, base[index] &- UInt8(ascii: "0") < 10 else { return false }
                while index < count && base[index] &- UInt8(ascii: "0") < 10 { index &+= 1 }
            }
            let length = index &- start
            guard length <= scanner.maxStringBytes else { return false }
            if flags == 0 && integerDigits >= 19 && !Self.fitsIn64Bits(base + digitsStart, integerDigits, negative) {
                guard scanner.options.bigIntegers != .throw else { return false }
                flags = JSONTape.big
            }
            entries.append(
                JSONTape.Entry(
                    start: UInt32(start), length: UInt32(length), next: UInt32(entries.count + 1), kind: .number,
                    flags: flags))
            return true
        }

        /// Whether the decimal digits fit in `UInt64` (positive) or `Int64` (negative).
        static func fitsIn64Bits(_ digits: UnsafePointer<UInt8>, _ count: Int, _ negative: Bool) -> Bool {
            var magnitude: UInt64 = 0
            for position in 0..<count {
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digits[position] &- UInt8(ascii: "0")))
                if overflow1 || overflow2 { return false }
                magnitude = sum
            }
            return magnitude <= (negative ? UInt64(Int64.max) + 1 : UInt64.max)
        }
    }
}
