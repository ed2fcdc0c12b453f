// SPDX-License-Identifier: Apache-2.0
import CFormBaseline
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Flattened form pairs laid out for the C table encoder (`satchel_bench_form_encode`): one
/// arena holding every key and value byte, and the table of pointers into it. Built once,
/// before timing; owns both buffers.
final class FormPairTable {
    private let arena: UnsafeMutableBufferPointer<CChar>
    private let table: UnsafeMutableBufferPointer<satchel_bench_form_pair>

    /// Lays out `pairs` (``FormWriter/pairs(from:)``'s output, in its order).
    init(_ pairs: [FormWriter.Pair]) {
        count = pairs.count
        let size = pairs.reduce(0) { $0 + $1.key.utf8.count + ($1.value?.count ?? 0) }
        arena = .allocate(capacity: max(size, 1))
        table = .allocate(capacity: max(pairs.count, 1))
        var offset = 0
        func store<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (UnsafePointer<CChar>, Int) {
            let start = arena.baseAddress! + offset
            for byte in bytes {
                arena[offset] = CChar(bitPattern: byte)
                offset += 1
            }
            return (UnsafePointer(start), bytes.count)
        }
        for (index, pair) in pairs.enumerated() {
            let key = store(pair.key.utf8)
            let value = pair.value.map(store)
            table[index] = satchel_bench_form_pair(
                key: key.0, key_length: key.1, value: value?.0, value_length: value?.1 ?? 0)
        }
    }

    deinit {
        arena.deallocate()
        table.deallocate()
    }

    /// The number of pairs.
    let count: Int

    /// Encodes the table and frees the result; returns its length.
    func encode() -> Int {
        satchel_bench_form_encode(table.baseAddress, count, nil)
    }

    /// Encodes the table and returns the bytes, for the guard; `nil` when C could not allocate.
    func encodedBytes() -> [UInt8]? {
        var output: UnsafeMutablePointer<CChar>?
        let length = satchel_bench_form_encode(table.baseAddress, count, &output)
        guard length >= 0, let output else { return nil }
        defer { free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }
}
