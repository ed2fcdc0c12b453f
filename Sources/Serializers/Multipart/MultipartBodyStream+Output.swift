// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension MultipartBodyStream {
    /// The size of the one buffer used to copy a body to a file or descriptor: 64 KiB.
    public static let copyBufferSize = 64 * 1024

    /// The whole body in memory, from its first byte (the stream is rewound first).
    ///
    /// - Parameter limit: The most bytes accepted; ``Limits/maxBodyBytes`` by default.
    /// - Throws: ``SatchelError/Code/limitExceeded`` past `limit` (before reading when the
    ///   length is known), or the stream's error.
    public func bytes(limit: Int = Limits.default.maxBodyBytes) throws(SatchelError) -> [UInt8] {
        if let length, length > Int64(limit) {
            throw SatchelError.limitExceeded(
                "maxBodyBytes", limit, "a multipart body of \(length) bytes", offset: limit)
        }
        try rewind()
        // `readAll(limit:)`, with this stream's typed `read(into:)`.
        var bytes: [UInt8] = []
        if let length { bytes.reserveCapacity(Int(length)) }
        var chunk = [UInt8](repeating: 0, count: Self.copyBufferSize)
        while true {
            let count = try chunk.withUnsafeMutableBufferPointer { (chunk) throws(SatchelError) in
                try read(into: UnsafeMutableRawBufferPointer(chunk))
            }
            if count == 0 { return bytes }
            if bytes.count + count > limit {
                throw SatchelError.limitExceeded(
                    "maxBodyBytes", limit, "a body of more than \(limit) bytes", offset: limit)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes the whole body, from its first byte, to the file at `path`, atomically.
    ///
    /// The body goes to a new temporary file beside `path` (created with mode 0666 less the
    /// umask), which is flushed to disk and renamed over `path` only once the body is complete;
    /// on any error the temporary file is removed and `path` is left as it was.
    ///
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be created, written or renamed, or
    ///   the stream's error.
    public func write(to path: String) throws(SatchelError) {
        try rewind()
        let directoryEnd = path.lastIndex(of: "/")
        let directory = directoryEnd.map { String(path[...$0]) } ?? ""
        let name = directoryEnd.map { String(path[path.index(after: $0)...]) } ?? path
        let temporaryPath =
            "\(directory).\(name).satchel-\(MultipartBoundary.random().value.dropFirst(8).prefix(16)).tmp"
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot create a temporary file beside \(path): \(Self.systemReason())")
        }
        var renamed = false
        defer {
            close(descriptor)
            if !renamed { unlink(temporaryPath) }
        }
        try write(toFileDescriptor: descriptor, named: temporaryPath)
        guard fsync(descriptor) == 0 else {
            throw SatchelError(.io, "cannot write to \(temporaryPath): \(Self.systemReason())")
        }
        guard rename(temporaryPath, path) == 0 else {
            throw SatchelError(.io, "cannot write to \(path): renaming \(temporaryPath) failed: \(Self.systemReason())")
        }
        renamed = true
    }

    /// Copies the rest of the body to an open file descriptor through one 64 KiB buffer.
    ///
    /// - Parameters:
    ///   - descriptor: Where to write; not closed.
    ///   - name: What the descriptor is, for error messages ("standard output").
    /// - Returns: The number of bytes written.
    /// - Throws: ``SatchelError/Code/io`` with a message starting "cannot write to" when writing
    ///   fails, or the stream's error (bytes before it have been written).
    @discardableResult
    public func write(toFileDescriptor descriptor: Int32, named name: String) throws(SatchelError) -> Int64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.copyBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let count = try read(into: buffer)
            if count == 0 { return total }
            var offset = 0
            while offset < count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw SatchelError(.io, "cannot write to \(name): \(Self.systemReason())")
                }
                offset += written
            }
            total += Int64(count)
        }
    }

    static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
