// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a binary property list (`bplist00`) as its values arrive.
///
/// Each value becomes an object numbered in the order it arrives (the top value is object 0).
/// Scalars are written at once; equal strings, object keys above all, are written once and
/// shared. Containers are written at the end, when the object count, and so the size of a
/// reference, is known; then the offset table and the trailer. Integers take the fewest bytes
/// (negative ones 8, as the format requires; `UInt64` values above `Int64.max` 16), strings are
/// ASCII or UTF-16BE, dates are seconds since 2001 as a double.
final class BinaryPropertyListOutput: PropertyListOutput {
    private struct State {
        var bytes: [UInt8] = Array("bplist00".utf8)
        /// Each object's offset, by object number; a container's is set when it is written.
        var offsets: [Int] = []
        /// The members of the open containers, innermost last: object numbers, a dictionary's as
        /// key, value pairs.
        var members: [Int] = []
        /// The open containers: their object number and where their members start in `members`.
        var open: [(object: Int, start: Int)] = []
        /// The closed containers, to write at the end; their members are in `references` from
        /// `start` (a dictionary's keys, then its values).
        var closed: [(object: Int, keyed: Bool, start: Int, count: Int)] = []
        var references: [Int] = []
        var strings = BinaryPropertyListStringTable()
    }

    /// The state, behind a pointer: see ``PropertyListStateStorage``.
    private let storage = PropertyListStateStorage(State())
    private var state: State {
        unsafeAddress { UnsafePointer(storage.pointer) }
        unsafeMutableAddress { storage.pointer }
    }

    init() {
        state.bytes.reserveCapacity(4096)
    }

    // MARK: Containers

    func begin(keyed: Bool, depth: Int) {
        let object = state.offsets.count
        state.offsets.append(0)
        if !state.open.isEmpty { state.members.append(object) }
        state.open.append((object, state.members.count))
    }

    func end(keyed: Bool, depth: Int) {
        let container = state.open.removeLast()
        let start = state.references.count
        let count = state.members.count - container.start
        if keyed {
            for position in stride(from: container.start, to: state.members.count, by: 2) {
                state.references.append(state.members[position])
            }
            for position in stride(from: container.start + 1, to: state.members.count, by: 2) {
                state.references.append(state.members[position])
            }
        } else {
            state.references.append(contentsOf: state.members[container.start...])
        }
        state.members.removeLast(count)
        state.closed.append((container.object, keyed, start, keyed ? count / 2 : count))
    }

    func key(_ name: String, depth: Int) {
        state.members.append(stringObject(name))
    }

    func finish() -> [UInt8] {
        let referenceSize = Self.byteCount(for: UInt64(max(state.offsets.count - 1, 0)))
        state.bytes.reserveCapacity(
            state.bytes.count + state.references.count * referenceSize + state.closed.count * 3 + state.offsets.count
                * 4 + 32)
        for container in state.closed {
            state.offsets[container.object] = state.bytes.count
            appendMarker(container.keyed ? 0xD0 : 0xA0, count: container.count)
            let total = container.keyed ? 2 * container.count : container.count
            for reference in state.references[container.start..<container.start + total] {
                appendBigEndian(UInt64(reference), size: referenceSize)
            }
        }
        let tableStart = state.bytes.count
        let offsetSize = Self.byteCount(for: UInt64(state.offsets.max() ?? 0))
        for offset in state.offsets {
            appendBigEndian(UInt64(offset), size: offsetSize)
        }
        state.bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        appendBigEndian(UInt64(state.offsets.count), size: 8)
        appendBigEndian(0, size: 8)  // the top object
        appendBigEndian(UInt64(tableStart), size: 8)
        return state.bytes
    }

    // MARK: Scalars

    /// Numbers the next object, a scalar written at the end of the state.bytes, as a member of the
    /// state.open container.
    @inline(__always)
    private func startObject() {
        if !state.open.isEmpty { state.members.append(state.offsets.count) }
        state.offsets.append(state.bytes.count)
    }

    func bool(_ flag: Bool, depth: Int) {
        startObject()
        state.bytes.append(flag ? 0x09 : 0x08)
    }

    func integer(_ number: Int64, depth: Int) {
        startObject()
        if number < 0 || number > 0xFFFF_FFFF {
            state.bytes.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8)
        } else if number > 0xFFFF {
            state.bytes.append(0x12)
            appendBigEndian(UInt64(number), size: 4)
        } else if number > 0xFF {
            state.bytes.append(0x11)
            appendBigEndian(UInt64(number), size: 2)
        } else {
            state.bytes.append(0x10)
            state.bytes.append(UInt8(number))
        }
    }

    func unsignedInteger(_ number: UInt64, depth: Int) {
        guard number > UInt64(Int64.max) else { return integer(Int64(number), depth: depth) }
        startObject()
        state.bytes.append(0x14)
        appendBigEndian(0, size: 8)
        appendBigEndian(number, size: 8)
    }

    func double(_ number: Double, depth: Int) {
        startObject()
        state.bytes.append(0x23)
        appendBigEndian(number.bitPattern, size: 8)
    }

    func string(_ text: String, depth: Int) {
        let object = stringObject(text)
        if !state.open.isEmpty { state.members.append(object) }
    }

    func date(_ date: Date, depth: Int) {
        startObject()
        state.bytes.append(0x33)
        appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
    }

    func data(_ data: UnsafeRawBufferPointer, depth: Int) {
        startObject()
        appendMarker(0x40, count: data.count)
        state.bytes.append(contentsOf: data.assumingMemoryBound(to: UInt8.self))
    }

    func uid(_ number: UInt64, depth: Int) {
        startObject()
        let size = Self.byteCount(for: number)
        state.bytes.append(0x80 | UInt8(size - 1))
        appendBigEndian(number, size: size)
    }

    /// The object number of the string `text`, written now if no equal string was.
    private func stringObject(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { utf8 in
            state.strings.object(for: utf8, next: state.offsets.count) {
                state.offsets.append(state.bytes.count)
                appendString(utf8)
            }
        }
    }

    /// A string object: ASCII as it is, anything else as UTF-16BE.
    private func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        var units = 0  // UTF-16 code units: one per scalar, two for those of four UTF-8 bytes
        for byte in utf8 where byte & 0xC0 != 0x80 {
            units += byte >= 0xF0 ? 2 : 1
        }
        if units == utf8.count && !utf8.contains(where: { $0 >= 0x80 }) {
            appendMarker(0x50, count: utf8.count)
            state.bytes.append(contentsOf: utf8)
            return
        }
        appendMarker(0x60, count: units)
        var position = state.bytes.count
        state.bytes.append(contentsOf: repeatElement(0, count: 2 * units))
        state.bytes.withUnsafeMutableBufferPointer { bytes in
            // The bytes are a `String`'s, so valid UTF-8: no repairs.
            _ = transcode(utf8.makeIterator(), from: UTF8.self, to: UTF16.self, stoppingOnError: false) { unit in
                bytes[position] = UInt8(unit >> 8)
                bytes[position + 1] = UInt8(truncatingIfNeeded: unit)
                position += 2
            }
        }
    }

    // MARK: Encoding

    /// A marker with its count: in the low nibble below 15, else nibble 15 and an integer object.
    private func appendMarker(_ marker: UInt8, count: Int) {
        if count < 15 {
            state.bytes.append(marker | UInt8(count))
            return
        }
        state.bytes.append(marker | 0x0F)
        let size = Self.byteCount(for: UInt64(count))
        state.bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(UInt64(count), size: size)
    }

    /// 1, 2, 4 or 8: the fewest of those state.bytes that hold `number`.
    private static func byteCount(for number: UInt64) -> Int {
        if number <= 0xFF { return 1 }
        if number <= 0xFFFF { return 2 }
        if number <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    /// The low `size` state.bytes of `number`, most significant first.
    @inline(__always)
    private func appendBigEndian(_ number: UInt64, size: Int) {
        withUnsafeBytes(of: number.bigEndian) { word in
            state.bytes.append(
                contentsOf: UnsafeBufferPointer(rebasing: word.assumingMemoryBound(to: UInt8.self)[(8 - size)...]))
        }
    }
}
