// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A NUL-terminated copy of bytes in memory the library owns, kept by the object it came from
/// and freed with it: what the C ABI hands out as "owned by the library".
final class CBuffer: @unchecked Sendable {  // Immutable after init; C callers only read it.
    /// The bytes, followed by a NUL.
    let pointer: UnsafeMutablePointer<UInt8>
    /// The number of bytes, without the NUL.
    let count: Int

    /// Copies `bytes`.
    init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        count = bytes.count
        pointer = .allocate(capacity: count + 1)
        _ = UnsafeMutableBufferPointer(start: pointer, count: count).initialize(from: bytes)
        pointer[count] = 0
    }

    /// Copies the UTF-8 of `string`.
    convenience init(_ string: String) {
        self.init(string.utf8)
    }

    deinit { pointer.deallocate() }

    /// The bytes as a C string.
    var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self)
    }

    /// Copies `bytes` into a `malloc`ed, NUL-terminated buffer the caller releases with
    /// `satchel_free`.
    ///
    /// - Throws: `SATCHEL_E_NO_MEMORY` when `malloc` fails.
    static func mallocCopy<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(bytes.count + 1) else {
            throw SatchelError(.noMemory, "cannot allocate \(bytes.count + 1) bytes")
        }
        let buffer = memory.bindMemory(to: UInt8.self, capacity: bytes.count + 1)
        _ = UnsafeMutableBufferPointer(start: buffer, count: bytes.count).initialize(from: bytes)
        buffer[bytes.count] = 0
        return buffer
    }
}

/// Writes a borrowed (pointer, length) pair to optional out-parameters.
func store(
    _ buffer: CBuffer, _ pointer: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ length: UnsafeMutablePointer<Int>?
) {
    pointer?.pointee = buffer.cString
    length?.pointee = buffer.count
}
