// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A stored response's body, checked before it is handed out: bytes in memory, or a range of an
/// entry file held open, so that a body of any size is served in chunks and never whole in
/// memory. The file cannot change under it: entries are only ever replaced by a rename or
/// deleted, and an open descriptor keeps reading the file it opened.
final class CachedBody: Sendable {
    enum Storage {
        case bytes([UInt8])
        case file(descriptor: Int32, offset: Int64, length: Int64)
    }

    let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    deinit {
        if case .file(let descriptor, _, _) = storage { close(descriptor) }
    }

    /// The body's length in bytes.
    var count: Int64 {
        switch storage {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, _, let length): length
        }
    }

    /// Calls `body` with each chunk of at most `chunkSize` bytes, in order, until it returns
    /// `false`. - Returns: `false` when a read failed or `body` stopped.
    @discardableResult
    func forEachChunk(startingAt start: Int64 = 0, size chunkSize: Int = 1 << 20, _ body: ([UInt8]) -> Bool) -> Bool {
        switch storage {
        case .bytes(let bytes):
            var index = Int(start)
            while index < bytes.count {
                let end = min(index + chunkSize, bytes.count)
                guard body(Array(bytes[index..<end])) else { return false }
                index = end
            }
            return true
        case .file(let descriptor, let offset, let length):
            var position = start
            let chunkSize = Int(min(Int64(chunkSize), max(1, length - start)))
            var chunk = [UInt8](repeating: 0, count: chunkSize)
            while position < length {
                let want = Int(min(Int64(chunkSize), length - position))
                let got = chunk.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress!, want, off_t(offset + position))
                }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                position += Int64(got)
                guard body(got == chunkSize ? chunk : Array(chunk[..<got])) else { return false }
            }
            return true
        }
    }

    /// The whole body in memory; `nil` when a read failed.
    func bytes() -> [UInt8]? {
        if case .bytes(let bytes) = storage { return bytes }
        var all: [UInt8] = []
        all.reserveCapacity(Int(count))
        return forEachChunk {
            all += $0
            return true
        } ? all : nil
    }

    /// The checksum of the body (``CacheChecksum``); `nil` when a read failed.
    func checksum() -> UInt64? {
        var checksum = CacheChecksum()
        let complete = forEachChunk {
            $0.withUnsafeBytes { checksum.update($0) }
            return true
        }
        return complete ? checksum.value : nil
    }
}
