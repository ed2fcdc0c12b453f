// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a ``Value`` as a binary property list (`bplist00`).
///
/// The tree is flattened first (equal strings, object keys above all, are written once), so the
/// object count fixes the reference size; then each object is written and the offset table and
/// trailer follow. Integers take the fewest bytes (negative ones 8, as the format requires;
/// `UInt64` values above `Int64.max` 16), strings are ASCII or UTF-16BE, dates are seconds since
/// 2001 as a double.
struct BinaryPropertyListWriter {
    /// Deepest nesting written.
    let maxDepth: Int

    private enum Entry {
        case scalar(Value)
        case array(start: Int, count: Int)
        case dictionary(start: Int, count: Int)
    }

    /// The binary plist of `value`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for null and payloads other than
    ///   ``PropertyListUID``; ``SatchelError/Code/limitExceeded`` past `maxDepth`. Both name the
    ///   key path.
    func write(_ value: Value) throws(SatchelError) -> [UInt8] {
        var flattener = Flattener(maxDepth: maxDepth)
        do {
            _ = try flattener.add(value, depth: 0)
        } catch {
            // `add` recurses with untyped throws (small frames); it throws only SatchelErrors.
            var error = error as? SatchelError ?? SatchelError(.internal, "unexpected error: \(error)")
            error.keyPath = KeyPathComponent.render(flattener.errorPath.reversed())
            throw error
        }
        let entries = flattener.entries
        let references = flattener.references
        let referenceSize = Self.byteCount(for: UInt64(entries.count - 1))

        var output: [UInt8] = []
        output.reserveCapacity(entries.count * 8 + references.count * referenceSize + 64)
        output.append(contentsOf: "bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(entries.count)
        for entry in entries {
            offsets.append(output.count)
            switch entry {
            case .scalar(let scalar):
                Self.appendScalar(scalar, to: &output)
            case .array(let start, let count):
                Self.appendMarker(0xA0, count: count, to: &output)
                for reference in references[start..<start + count] {
                    Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &output)
                }
            case .dictionary(let start, let count):
                Self.appendMarker(0xD0, count: count, to: &output)
                for reference in references[start..<start + 2 * count] {
                    Self.appendBigEndian(UInt64(reference), size: referenceSize, to: &output)
                }
            }
        }
        let tableStart = output.count
        let offsetSize = Self.byteCount(for: UInt64(offsets.last ?? 0))
        for offset in offsets {
            Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output)
        }
        output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        Self.appendBigEndian(UInt64(entries.count), size: 8, to: &output)
        Self.appendBigEndian(0, size: 8, to: &output)
        Self.appendBigEndian(UInt64(tableStart), size: 8, to: &output)
        return output
    }

    /// Turns the tree into a list of objects, top object first, containers pointing at their
    /// children's indices in `references`.
    private struct Flattener {
        let maxDepth: Int
        var entries: [Entry] = []
        var references: [Int] = []
        var stringIndices: [String: Int] = [:]
        var errorPath: [KeyPathComponent] = []

        init(maxDepth: Int) {
            self.maxDepth = maxDepth
        }

        /// Recursive: untyped throws and errors built in a non-inlined helper keep each level's
        /// stack frame small.
        mutating func add(_ value: Value, depth: Int) throws -> Int {
            switch value {
            case .string(let string):
                return addString(string)
            case .array(let elements):
                let index = try reserveContainer(depth: depth)
                let start = references.count
                references.append(contentsOf: repeatElement(0, count: elements.count))
                for (position, element) in elements.enumerated() {
                    do {
                        references[start + position] = try add(element, depth: depth + 1)
                    } catch {
                        errorPath.append(.index(position))
                        throw error
                    }
                }
                entries[index] = .array(start: start, count: elements.count)
                return index
            case .object(let members):
                let index = try reserveContainer(depth: depth)
                let start = references.count
                references.append(contentsOf: repeatElement(0, count: 2 * members.count))
                for (position, key) in members.keys.enumerated() {
                    references[start + position] = addString(key)
                }
                for (position, member) in members.values.enumerated() {
                    do {
                        references[start + members.count + position] = try add(member, depth: depth + 1)
                    } catch {
                        errorPath.append(.key(members.keys[position]))
                        throw error
                    }
                }
                entries[index] = .dictionary(start: start, count: members.count)
                return index
            default:
                return try addScalar(value)
            }
        }

        @inline(never)
        private mutating func addScalar(_ value: Value) throws(SatchelError) -> Int {
            switch value {
            case .null:
                throw SatchelError(.unencodableValue, "property lists have no null")
            case .payload(let payload) where !(payload is PropertyListUID):
                throw SatchelError(.unencodableValue, "a \(type(of: payload).kind) payload has no property-list form")
            default:
                entries.append(.scalar(value))
                return entries.count - 1
            }
        }

        @inline(never)
        private mutating func addString(_ string: String) -> Int {
            if let index = stringIndices[string] { return index }
            entries.append(.scalar(.string(string)))
            stringIndices[string] = entries.count - 1
            return entries.count - 1
        }

        @inline(never)
        private mutating func reserveContainer(depth: Int) throws -> Int {
            if depth >= maxDepth {
                throw SatchelError.limitExceeded("maxDepth", maxDepth, "nesting")
            }
            entries.append(.array(start: 0, count: 0))
            return entries.count - 1
        }
    }

    // MARK: Objects

    private static func appendScalar(_ value: Value, to output: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            output.append(flag ? 0x09 : 0x08)
        case .integer(let number):
            appendInteger(number, to: &output)
        case .unsignedInteger(let number):
            output.append(0x14)
            appendBigEndian(0, size: 8, to: &output)
            appendBigEndian(number, size: 8, to: &output)
        case .double(let number):
            output.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &output)
        case .date(let date):
            output.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &output)
        case .bytes(let bytes):
            appendMarker(0x40, count: bytes.count, to: &output)
            output.append(contentsOf: bytes)
        case .string(let string):
            appendString(string, to: &output)
        case .payload(let payload):
            // The flattener lets only UIDs through.
            let uid = (payload as? PropertyListUID)?.value ?? 0
            let size = byteCount(for: uid)
            output.append(0x80 | UInt8(size - 1))
            appendBigEndian(uid, size: size, to: &output)
        case .null, .array, .object:
            break
        }
    }

    private static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        if number < 0 || number > 0xFFFF_FFFF {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &output)
        } else if number > 0xFFFF {
            output.append(0x12)
            appendBigEndian(UInt64(number), size: 4, to: &output)
        } else if number > 0xFF {
            output.append(0x11)
            appendBigEndian(UInt64(number), size: 2, to: &output)
        } else {
            output.append(0x10)
            output.append(UInt8(number))
        }
    }

    private static func appendString(_ string: String, to output: inout [UInt8]) {
        var string = string
        let isASCII = string.withUTF8 { utf8 in utf8.allSatisfy { $0 < 0x80 } }
        if isASCII {
            string.withUTF8 { utf8 in
                appendMarker(0x50, count: utf8.count, to: &output)
                output.append(contentsOf: utf8)
            }
        } else {
            appendMarker(0x60, count: string.utf16.count, to: &output)
            for unit in string.utf16 {
                output.append(UInt8(unit >> 8))
                output.append(UInt8(unit & 0xFF))
            }
        }
    }

    /// A marker with its count: in the low nibble below 15, else nibble 15 and an integer object.
    private static func appendMarker(_ marker: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(marker | UInt8(count))
            return
        }
        output.append(marker | 0x0F)
        let size = byteCount(for: UInt64(count))
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(UInt64(count), size: size, to: &output)
    }

    /// 1, 2, 4 or 8: the fewest of those bytes that hold `number`.
    private static func byteCount(for number: UInt64) -> Int {
        if number <= 0xFF { return 1 }
        if number <= 0xFFFF { return 2 }
        if number <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    @inline(__always)
    private static func appendBigEndian(_ number: UInt64, size: Int, to output: inout [UInt8]) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: number >> UInt64(shift)))
            shift -= 8
        }
    }
}
