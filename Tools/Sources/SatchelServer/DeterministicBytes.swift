// SPDX-License-Identifier: Apache-2.0
/// The bytes `/bytes/N` serves: byte `i` is `i % 251`. 251 is prime, so a body shifted by any
/// offset below 251 — a Range answered from the wrong place — no longer matches.
enum DeterministicBytes {
    /// The byte at `offset`.
    @inline(__always)
    static func byte(at offset: Int64) -> UInt8 {
        UInt8(truncatingIfNeeded: offset % 251)
    }

    /// Writes the bytes of `range` into `buffer`, which must hold `range.count` bytes.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, from range: Range<Int64>) {
        var value = Int(range.lowerBound % 251)
        for index in 0..<min(buffer.count, Int(range.count)) {
            buffer[index] = UInt8(truncatingIfNeeded: value)
            value += 1
            if value == 251 { value = 0 }
        }
    }

    /// The bytes of `range` in memory (for small ranges, such as batch parts).
    static func bytes(_ range: Range<Int64>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Int(range.count)) { buffer, count in
            fill(UnsafeMutableRawBufferPointer(buffer), from: range)
            count = Int(range.count)
        }
    }
}
