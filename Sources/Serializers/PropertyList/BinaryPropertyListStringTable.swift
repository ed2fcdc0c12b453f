// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The strings a binary property list holds, by their UTF-8 bytes, with their object numbers:
/// what lets the writer share equal strings.
///
/// An open-addressing table over a copy of each distinct string's bytes, so a look-up hashes
/// and compares bytes, with no `String` hashing, bridging or retains. The hash is seeded per
/// process (from `Hasher`), so text chosen by an attacker cannot be made to collide offline.
struct BinaryPropertyListStringTable {
    /// Each distinct string: its hash, where its bytes are in `text`, its object number.
    private var entries: [(hash: UInt64, start: Int, count: Int, object: Int)] = []
    /// Entry numbers plus one, by hash; 0 is an empty slot. A power of two long, at most half full.
    private var slots = [Int](repeating: 0, count: 64)
    private var text: [UInt8] = []

    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x5A7C_4E11 as UInt64)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }()

    /// The object number of the string `utf8`; when there is none yet, `write` writes it as
    /// object `next`, which is returned.
    /// - Complexity: O(n) in the string's length, amortized.
    mutating func object(for utf8: UnsafeBufferPointer<UInt8>, next: Int, write: () -> Void) -> Int {
        let hash = Self.hash(utf8)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = entries[slots[slot] - 1]
            if entry.hash == hash && entry.count == utf8.count && matches(utf8, at: entry.start) {
                return entry.object
            }
            slot = (slot + 1) & mask
        }
        write()
        entries.append((hash, text.count, utf8.count, next))
        text.append(contentsOf: utf8)
        slots[slot] = entries.count
        if entries.count * 2 > slots.count { grow() }
        return next
    }

    private func matches(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        return text.withUnsafeBufferPointer { stored in
            memcmp(stored.baseAddress! + start, base, utf8.count) == 0
        }
    }

    private mutating func grow() {
        slots = [Int](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = number + 1
        }
    }

    /// A 64-bit hash of `utf8`, eight bytes at a time.
    private static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = seed ^ UInt64(utf8.count) &* 0x9E37_79B9_7F4A_7C15
        let raw = UnsafeRawBufferPointer(utf8)
        var index = 0
        while index + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index += 8
        }
        if index < raw.count {
            var tail: UInt64 = 0
            for position in index..<raw.count { tail = tail << 8 | UInt64(raw[position]) }
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        }
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return hash ^ hash >> 32
    }
}
