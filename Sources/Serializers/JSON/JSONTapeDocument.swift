// SPDX-License-Identifier: Apache-2.0
import OrderedCollections
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A JSON text, its ``JSONTape`` and the decode's strategies, with non-throwing readers of single entries that return
/// `nil` where the value does not have the asked-for kind (the typed decoder then throws the
/// error).
///
/// The document borrows the caller's text while a decode runs, and copies it only when a
/// `Decodable` kept a decoder past the decode (``ownText()``): a body is not held twice.
final class JSONTapeDocument {
    // @exclusivity(unchecked): `text` is replaced once, by `ownText()`, when the decode has
    // returned and no decoder runs; every read is in the decode or in a kept decoder after it.
    @exclusivity(unchecked) private(set) var text: UnsafeBufferPointer<UInt8>
    private var ownsText = false
    let entries: [JSONTape.Entry]
    let options: JSONReadingOptions
    let maxPairs: Int
    /// The typed decode's strategies (dates, data, keys, non-conforming floats, `userInfo`).
    let strategies: JSONModelDecoder.Strategies

    /// A document over `text`, which must stay valid until ``ownText()`` or the document's end.
    init(
        borrowing text: UnsafeBufferPointer<UInt8>, entries: [JSONTape.Entry], options: JSONReadingOptions,
        maxPairs: Int, strategies: JSONModelDecoder.Strategies
    ) {
        self.text = text
        self.entries = entries
        self.options = options
        self.maxPairs = maxPairs
        self.strategies = strategies
    }

    /// Copies the borrowed text into memory the document owns (before the borrow ends, when a
    /// decoder outlives the decode).
    func ownText() {
        guard !ownsText else { return }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(text.count, 1))
        _ = copy.initialize(fromContentsOf: text)
        text = UnsafeBufferPointer(rebasing: copy[0..<text.count])
        ownsText = true
    }

    deinit { if ownsText { UnsafeMutableRawPointer(mutating: text.baseAddress!).deallocate() } }

    @inline(__always)
    func bytes(of entry: JSONTape.Entry) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.baseAddress! + Int(entry.start), count: Int(entry.length))
    }

    /// Whether the entry is an integer beyond 64 bits read as a string (`bigIntegers = .string`).
    @inline(__always)
    func isBigIntegerString(_ entry: JSONTape.Entry) -> Bool {
        entry.flags == JSONTape.big && options.bigIntegers == .string
    }

    /// What the entry holds, as error messages name it.
    func kindName(_ index: Int) -> String {
        let entry = entries[index]
        switch entry.kind {
        case .null: return "null"
        case .false, .true: return "bool"
        case .number:
            if isBigIntegerString(entry) { return "string" }
            return entry.flags == 0 ? "integer" : "double"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The number of distinct member names of the object at `index` (duplicates count once, as
    /// in the ``Value`` tree, where the limit on members per object applies to them).
    func distinctMemberCount(_ index: Int) -> Int {
        var names: Set<String> = []
        var name = index + 1
        while name < Int(entries[index].next) {
            names.insert(string(name) ?? "")
            name = Int(entries[name + 1].next)
        }
        return names.count
    }

    /// The object's members as the tree has them: each distinct name (decoded) at its first
    /// place, with the entries of that first name and of its last value (json-c's rule, which
    /// ``value(_:)`` and ``walk(into:)`` both follow).
    func effectiveMembers(_ index: Int) -> OrderedDictionary<String, (name: Int, value: Int)> {
        var members = OrderedDictionary<String, (name: Int, value: Int)>(minimumCapacity: Int(entries[index].length))
        var name = index + 1
        while name < Int(entries[index].next) {
            let key = string(name) ?? ""
            if let first = members.updateValue((name, name + 1), forKey: key) {
                members[key] = (first.name, name + 1)
            }
            name = Int(entries[name + 1].next)
        }
        return members
    }

    // MARK: Scalars

    /// The entry's text, if it is a string.
    func string(_ index: Int) -> String? {
        let entry = entries[index]
        guard entry.kind == .string else {
            return isBigIntegerString(entry) ? String(decoding: bytes(of: entry), as: UTF8.self) : nil
        }
        if entry.flags == 0 { return String(decoding: bytes(of: entry), as: UTF8.self) }
        return Self.unescape(bytes(of: entry))
    }

    /// The entry's truth value, if it is a bool.
    @inline(__always)
    func bool(_ index: Int) -> Bool? {
        switch entries[index].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// The entry's number as a `Double`, if it is a number; infinite when its magnitude is beyond
    /// `Double`'s range.
    func double(_ index: Int) -> Double? {
        let entry = entries[index]
        guard entry.kind == .number, !isBigIntegerString(entry) else { return nil }
        return Self.parseDouble(bytes(of: entry))
    }

    /// The entry's number as an `I`, if it is a number that `I` holds exactly.
    func integer<I: FixedWidthInteger>(_ index: Int, as type: I.Type) -> I? {
        let entry = entries[index]
        guard entry.kind == .number else { return nil }
        if entry.flags == 0 {
            let digits = bytes(of: entry)
            let negative = digits[0] == UInt8(ascii: "-")
            var magnitude: UInt64 = 0
            for position in (negative ? 1 : 0)..<digits.count {
                magnitude = magnitude &* 10 &+ UInt64(digits[position] &- UInt8(ascii: "0"))
            }
            if negative {
                guard I.isSigned, magnitude <= UInt64(I.max) &+ 1 else { return magnitude == 0 ? 0 : nil }
                return magnitude == UInt64(I.max) &+ 1 ? I.min : 0 - I(magnitude)
            }
            return I(exactly: magnitude)
        }
        guard !isBigIntegerString(entry) else { return nil }
        let number = Self.parseDouble(bytes(of: entry))
        return number.isFinite ? I(exactly: number) : nil
    }

    /// The number's text, for error messages.
    func numberText(_ index: Int) -> String {
        String(decoding: bytes(of: entries[index]), as: UTF8.self)
    }

    // MARK: Text

    /// The text of a string with escapes (validated by the scanner).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        unescape(raw, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Replaces `output`'s bytes with the UTF-8 of a string with escapes (validated by the
    /// scanner), keeping its capacity for the next one.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    scalar = JSONTape.scalar(high: scalar, low: hex4(raw, index + 2))
                    index += 6
                }
                JSONTape.appendUTF8(of: scalar, to: &output)
            default: output.append(escape)
            }
        }
    }

    /// A `\u` escape's code unit in text the scanner validated.
    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt32 {
        JSONTape.codeUnit(raw, at: start) ?? 0
    }

    /// Whether a member name equals `name`: compared byte for byte, or decoded first when it has
    /// escapes.
    @inline(__always)
    func nameEquals(_ entry: JSONTape.Entry, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if entry.flags == 0 {
            guard Int(entry.length) == name.count else { return false }
            return name.isEmpty || memcmp(text.baseAddress! + Int(entry.start), name.baseAddress!, name.count) == 0
        }
        return Self.unescape(bytes(of: entry)).utf8.elementsEqual(name)
    }

    // MARK: Numbers

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The double nearest to a validated JSON number: exact arithmetic when the digits fit in 53
    /// bits and the power of ten is exact (Clinger's fast path), else `strtod` in the C locale.
    static func parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var exact = true
        while index < text.count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if mantissa != 0 { significant += 1 }
            } else {
                exponent += 1
                if digit != 0 { exact = false }
            }
            index += 1
        }
        if index < text.count && text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                } else if digit != 0 {
                    exact = false
                }
                index += 1
            }
        }
        if index < text.count {  // the exponent
            index += 1
            var exponentNegative = false
            if text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var value = 0
            while index < text.count {
                if value < 100_000 { value = value * 10 + Int(text[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            exponent += exponentNegative ? -value : value
        }
        if mantissa == 0 && exact { return negative ? -0.0 : 0.0 }
        if exact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            let value = Double(mantissa)
            let scaled = exponent >= 0 ? value * powersOfTen[exponent] : value / powersOfTen[-exponent]
            return negative ? -scaled : scaled
        }
        return strtodInCLocale(text)
    }

    /// `strtod` of the text, with the C locale's decimal point whatever the process's locale.
    private static func strtodInCLocale(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for position in 0..<text.count { buffer[position] = CChar(bitPattern: text[position]) }
            buffer[text.count] = 0
            let previous = uselocale(CLocale.shared.locale)
            defer { uselocale(previous) }
            return strtod(buffer.baseAddress!, nil)
        }
    }

    /// The C locale, made once.
    private final class CLocale: Sendable {
        // A locale object is immutable once made and `uselocale` only reads it.
        nonisolated(unsafe) let locale: locale_t?
        static let shared = CLocale()
        private init() { locale = newlocale(Int32(1 << LC_NUMERIC), "C", nil) }
    }
}
