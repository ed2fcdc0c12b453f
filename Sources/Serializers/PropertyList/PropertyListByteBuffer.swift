// SPDX-License-Identifier: Apache-2.0

/// The growing bytes of the XML property-list output: an append is a capacity check and a copy.
///
/// `Array.append(contentsOf:)` costs about a hundred instructions a call, and the XML form is
/// written in pieces of a few bytes (a tab, a tag, a key). The buffer does not own its memory:
/// the output that holds it calls ``deallocate()`` when it is done.
struct PropertyListByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the memory; the buffer must not be used again.
    func deallocate() {
        base.deallocate()
    }

    /// A copy of the bytes written.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `extra` more bytes, growing by doubling.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `count` copies of `byte`.
    @inline(__always)
    mutating func append(repeating byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (base + count).initialize(repeating: byte, count: repeats)
        count += repeats
    }

    /// The decimal digits of `number`, with a `-` when `negative`.
    mutating func appendDecimal(_ number: UInt64, negative: Bool = false) {
        reserve(21)
        if negative {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var value = number
        var position = count + digits
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        } while value > 0
        count += digits
    }

    /// The decimal digits of `number`'s magnitude (the callers' numbers are never negative),
    /// zero-padded on the left to `width`.
    mutating func appendDecimal(_ number: Int64, width: Int) {
        var digits = 1
        var rest = number.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        append(repeating: UInt8(ascii: "0"), count: width - digits)
        appendDecimal(number.magnitude)
    }

    /// Drops the last `dropped` bytes written.
    mutating func removeLast(_ dropped: Int) {
        count -= dropped
    }

    /// Runs `body` on room for `extra` more bytes at the end, and counts them written.
    @inline(__always)
    mutating func appendInPlace(_ extra: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        reserve(extra)
        body(UnsafeMutableBufferPointer(start: base + count, count: extra))
        count += extra
    }
}
