// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Scalars and arrays of scalars decoded in place, without a child decoder, a boxed container
/// and generic metadata look-ups per array and per element.
///
/// Each returns `nil` exactly where the general path throws, or for a type it does not handle;
/// the general path then decodes or throws the error it always threw, so values, errors and key
/// paths do not depend on which path ran.
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

    /// `entry` decoded as `T` without the `Decodable` machinery, for the scalar types and arrays
    /// of them; `nil` when `T` is another type or the entry does not fit.
    ///
    /// Metatype comparisons, not `is` casts: in this unspecialized generic code a cast calls into
    /// the runtime, a comparison is a load and a compare.
    func fastValue<T>(_ type: T.Type, at entry: Int) -> T? {
        // Each `unsafeBitCast` reinterprets a value as the very type the comparison before it
        // proved `T` to be.
        if type == String.self { return document.string(entry).map { unsafeBitCast($0, to: T.self) } }
        if type == Int.self { return document.integer(entry, as: Int.self).map { unsafeBitCast($0, to: T.self) } }
        if type == Double.self { return finiteDouble(entry).map { unsafeBitCast($0, to: T.self) } }
        if type == Bool.self { return document.bool(entry).map { unsafeBitCast($0, to: T.self) } }
        if type == Int64.self { return document.integer(entry, as: Int64.self).map { unsafeBitCast($0, to: T.self) } }
        if type == ArrayTypes.doubles { return arrayValue(entry, finiteDouble).map { unsafeBitCast($0, to: T.self) } }
        if type == ArrayTypes.strings {
            return arrayValue(entry, document.string).map { unsafeBitCast($0, to: T.self) }
        }
        if type == ArrayTypes.ints {
            return arrayValue(entry, { document.integer($0, as: Int.self) }).map { unsafeBitCast($0, to: T.self) }
        }
        if type == ArrayTypes.int64s {
            return arrayValue(entry, { document.integer($0, as: Int64.self) }).map { unsafeBitCast($0, to: T.self) }
        }
        if type == ArrayTypes.bools { return arrayValue(entry, document.bool).map { unsafeBitCast($0, to: T.self) } }
        return nil
    }
}
