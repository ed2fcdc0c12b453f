// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a spilled part body to a new temporary file, through a 64 KiB buffer. The file is
/// removed unless ``seal()`` hands it over to a ``TemporaryFile``.
final class TemporaryFileWriter {
    let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let bufferSize = 64 * 1024
    private(set) var size = 0
    private var sealed = false

    /// Creates `satchel-part-XXXXXX` in `directory`, or `$TMPDIR`, or `/tmp`, with `mkstemp`
    /// (mode 0600), closed on exec.
    ///
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be created.
    init(directory: String?) throws(SatchelError) {
        var folder = directory ?? getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if folder.isEmpty { folder = "/tmp" }
        if folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        var template = Array("\(folder)/satchel-part-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw TemporaryFile.failure("cannot create a temporary file for a part body in \(folder)")
        }
        fchmod(descriptor, 0o600)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        buffer.reserveCapacity(bufferSize)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !sealed { unlink(path) }
    }

    /// Appends bytes.
    func write(_ bytes: UnsafePointer<UInt8>, count: Int) throws(SatchelError) {
        size += count
        if buffer.count + count <= bufferSize {
            buffer.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            return
        }
        try flush()
        if count >= bufferSize {
            try writeOut(bytes, count: count)
        } else {
            buffer.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
    }

    /// Flushes, closes, and hands the file over.
    func seal() throws(SatchelError) -> TemporaryFile {
        try flush()
        close(descriptor)
        descriptor = -1
        sealed = true
        return TemporaryFile(path: path, size: size)
    }

    private func flush() throws(SatchelError) {
        guard !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        try pending.withUnsafeBufferPointer { (pending) throws(SatchelError) in
            try writeOut(pending.baseAddress!, count: pending.count)
        }
    }

    private func writeOut(_ bytes: UnsafePointer<UInt8>, count: Int) throws(SatchelError) {
        var offset = 0
        while offset < count {
            let written = Glibc.write(descriptor, bytes + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw TemporaryFile.failure("cannot write the temporary file \(path)")
            }
            offset += written
        }
    }
}
