// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Scalars and arrays of scalars decoded in place, without a child decoder, a boxed container
/// and generic metadata look-ups per array and per element; and the types whose JSON form is
/// not their `Codable` form (dates, data, URLs, decimals, ``Value``).
///
/// A fast path gives up exactly where the general path throws; the general path then throws the
/// error it always threw, so values, errors and key paths do not depend on which path ran.
extension JSONTapeDecoder {
    /// The array types with a fast path, looked up once: in unspecialized generic code
    /// `[Double].self` asks the runtime for the generic type's metadata on every use.
    private enum ArrayTypes {
        static let doubles: Any.Type = [Double].self
        static let strings: Any.Type = [String].self
        static let ints: Any.Type = [Int].self
        static let int64s: Any.Type = [Int64].self
        static let bools: Any.Type = [Bool].self
    }

    /// The finite double at `entry`, if it is a number that fits.
    private func finiteDouble(_ entry: Int) -> Double? {
        guard let number = document.double(entry), number.isFinite else { return nil }
        return number
    }

    /// The elements of the array at `entry`, read with `element`, if every element reads.
    private func arrayValue<Element>(_ entry: Int, _ element: (Int) -> Element?) -> [Element]? {
        let array = document.entries[entry]
        guard array.kind == .array, !document.options.removesKeysWithNullValues else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(Int(array.length))
        var position = entry + 1
        let end = Int(array.next)
        while position < end {
            guard let value = element(position) else { return nil }
            elements.append(value)
            position = Int(document.entries[position].next)
        }
        return elements
    }

    /// The types read without their own `Decodable` implementation: scalars and arrays of them
    /// in place (a fast path), and the types whose JSON form is not their `Codable` form.
    enum OwnForm {
        case string, int, double, bool, int64, doubles, strings, ints, int64s, bools
        case date, data, url, decimal, value
    }

    /// The form `type` is read in, or `nil` for a type read by its `Decodable` implementation.
    ///
    /// Metatype comparisons, not `is` casts, and no `T?` in the caller: in this unspecialized
    /// generic code a cast calls into the runtime and an optional of a generic type asks it for
    /// that type's metadata, while a comparison is a load and a compare.
    static func ownForm(of type: Any.Type) -> OwnForm? {
        if type == String.self { return .string }
        if type == Int.self { return .int }
        if type == Double.self { return .double }
        if type == Bool.self { return .bool }
        if type == Int64.self { return .int64 }
        if type == ArrayTypes.doubles { return .doubles }
        if type == ArrayTypes.strings { return .strings }
        if type == ArrayTypes.ints { return .ints }
        if type == ArrayTypes.int64s { return .int64s }
        if type == ArrayTypes.bools { return .bools }
        if type == Date.self { return .date }
        if type == Data.self { return .data }
        if type == URL.self { return .url }
        if type == Decimal.self { return .decimal }
        if type == Value.self { return .value }
        return nil
    }

    /// `entry` decoded as `T`, whose form is `form`: in place when it fits, else by `fallback`
    /// (the general path, which then decodes or throws the error it always threw).
    @inline(never)
    func decode<T: Decodable>(
        _ type: T.Type, _ form: OwnForm, at entry: Int, key: (any CodingKey)?, fallback: () throws -> T
    ) throws -> T {
        // Each `unsafeBitCast` and `as! T` reinterprets a value as the very type `form` proved
        // `T` to be.
        switch form {
        case .string: if let value = document.string(entry) { return unsafeBitCast(value, to: T.self) }
        case .int: if let value = document.integer(entry, as: Int.self) { return unsafeBitCast(value, to: T.self) }
        case .double: if let value = finiteDouble(entry) { return unsafeBitCast(value, to: T.self) }
        case .bool: if let value = document.bool(entry) { return unsafeBitCast(value, to: T.self) }
        case .int64:
            if let value = document.integer(entry, as: Int64.self) { return unsafeBitCast(value, to: T.self) }
        case .doubles: if let value = arrayValue(entry, finiteDouble) { return unsafeBitCast(value, to: T.self) }
        case .strings: if let value = arrayValue(entry, document.string) { return unsafeBitCast(value, to: T.self) }
        case .ints:
            if let value = arrayValue(entry, { document.integer($0, as: Int.self) }) {
                return unsafeBitCast(value, to: T.self)
            }
        case .int64s:
            if let value = arrayValue(entry, { document.integer($0, as: Int64.self) }) {
                return unsafeBitCast(value, to: T.self)
            }
        case .bools: if let value = arrayValue(entry, document.bool) { return unsafeBitCast(value, to: T.self) }
        case .date: return try date(at: entry, key: key) as! T
        case .data: return try data(at: entry, key: key) as! T
        case .url:
            guard let text = document.string(entry), let url = URL(string: text) else {
                throw mismatch("a URL string", at: entry, key: key)
            }
            return url as! T
        case .decimal:
            guard document.entries[entry].kind == .number, let number = Decimal(string: document.numberText(entry))
            else { throw mismatch("a number", at: entry, key: key) }
            return number as! T
        case .value: return try value(at: entry, key: key) as! T
        }
        return try fallback()
    }
}
