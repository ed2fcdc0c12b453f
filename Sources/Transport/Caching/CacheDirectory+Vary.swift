// SPDX-License-Identifier: Apache-2.0
import Glibc
import SerializerRegistry

extension CacheDirectory {
    /// The `Vary` record of the URL whose primary key is `primary` (``HTTPCache/VaryRecord``),
    /// from its file `DIGEST.vary`; `nil` when there is none or it does not read back.
    func readVary(_ primary: String) -> HTTPCache.VaryRecord? {
        let descriptor = open(path + "/" + Self.digest(primary) + ".vary", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16 << 10)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            count += got
        }
        guard count < bytes.count else { return nil }  // no record is this long
        return HTTPCache.VaryRecord(encoded: Array(bytes[..<count]), primary: primary)
    }

    /// Puts `record` in place for its URL, atomically (a temporary file renamed), or removes the
    /// URL's record when `record` is `nil`.
    func writeVary(_ record: HTTPCache.VaryRecord?, for primary: String) {
        let file = path + "/" + Self.digest(primary) + ".vary"
        guard let record else {
            unlink(file)
            return
        }
        guard let (descriptor, temporary) = try? makeTemporaryFile() else { return }
        let bytes = record.encoded(primary: primary)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        if written != bytes.count || rename(temporary, file) != 0 { unlink(temporary) }
    }
}
