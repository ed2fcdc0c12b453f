// SPDX-License-Identifier: Apache-2.0
/// A fast 64-bit checksum of a cache entry's parts, so that a corrupt or truncated entry is
/// found before it is served. Not cryptographic: it guards against damage (a disk, a crash
/// before the data reached it), not against someone who can write the cache directory, who
/// could as well write a matching checksum. The same bytes give the same value however they
/// are split across ``update(_:)`` calls.
struct CacheChecksum {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length: UInt64 = 0

    /// Adds bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var index = 0
        while pendingCount != 0 && index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
            if pendingCount == 8 {
                mix(pending)
                (pending, pendingCount) = (0, 0)
            }
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
        }
    }

    /// The checksum of `bytes`.
    static func of(_ bytes: [UInt8]) -> UInt64 {
        var checksum = CacheChecksum()
        bytes.withUnsafeBytes { checksum.update($0) }
        return checksum.value
    }

    /// The checksum of everything added.
    var value: UInt64 {
        var copy = self
        copy.mix(copy.pending ^ (UInt64(copy.pendingCount) << 56))
        copy.mix(copy.length)
        var mixed = copy.state
        mixed ^= mixed >> 33
        mixed &*= 0xFF51_AFD7_ED55_8CCD
        mixed ^= mixed >> 33
        return mixed
    }

    private mutating func mix(_ word: UInt64) {
        state = (state ^ (word &* 0x87C3_7B91_1142_53D5)).rotatedLeft(by: 31) &* 0x4CF5_AD43_2745_937F
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
