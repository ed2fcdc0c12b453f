// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A part body that was too large to keep in memory: a file created with `mkstemp` (mode 0600)
/// in `$TMPDIR` or `/tmp`, removed when the last reference to this object goes away.
///
/// It is also the value of a spilled part in a decoded ``MultipartParts``: such a body is not
/// decoded (that would bring it back into memory), and its canonical JSON is
/// `{"$file": {"path": "/tmp/satchel-part-…", "size": N}}`. Read it with ``readAll(limit:)``,
/// ``read(chunkSize:_:)`` or ``makeBodyStream()``, or keep it with ``save(to:)``.
public final class TemporaryFile: ValuePayload, Equatable {
    /// `"$file"`.
    public static let kind = "$file"

    /// The file's path.
    public let path: String
    /// The file's size in bytes.
    public let size: Int

    init(path: String, size: Int) {
        self.path = path
        self.size = size
    }

    deinit {
        unlink(path)
    }

    /// `{"path": …, "size": N}`.
    public var canonicalValue: Value {
        .object(["path": .string(path), "size": .integer(Int64(size))])
    }

    /// Calls `body` with the file's bytes, `chunkSize` bytes at a time.
    ///
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be read, or what `body` throws.
    public func read(
        chunkSize: Int = 64 * 1024, _ body: (UnsafeRawBufferPointer) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("cannot open \(path)") }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot read \(path)")
            }
            if count == 0 { break }
            total += count
            try buffer.withUnsafeBufferPointer { (buffer) throws(SatchelError) in
                try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<count]))
            }
        }
        guard total == size else {
            throw SatchelError(.io, "\(path) has \(total) bytes instead of the \(size) written")
        }
    }

    /// Reads up to `buffer.count` bytes from byte `offset` of the file into `buffer` (`pread`).
    ///
    /// - Returns: The bytes read; 0 at or past the end.
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be opened or read.
    public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(SatchelError) -> Int {
        guard offset < size, buffer.count > 0 else { return 0 }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("cannot open \(path)") }
        defer { close(descriptor) }
        while true {
            let count = pread(descriptor, buffer.baseAddress, min(buffer.count, size - offset), off_t(offset))
            if count >= 0 { return count }
            if errno != EINTR { throw Self.failure("cannot read \(path) at byte \(offset)") }
        }
    }

    /// The file's bytes.
    ///
    /// - Parameter limit: The most bytes accepted.
    /// - Throws: ``SatchelError/Code/limitExceeded`` (`maxBodyBytes`) when the file is larger than
    ///   `limit`; ``SatchelError/Code/io`` when it cannot be read.
    public func readAll(limit: Int = .max) throws(SatchelError) -> [UInt8] {
        if size > limit {
            throw SatchelError.limitExceeded("maxBodyBytes", limit, "a part body of \(size) bytes", offset: limit)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        try read { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A rewindable stream over the file, which keeps the file alive while it exists.
    public func makeBodyStream() throws -> any BodyStream {
        TemporaryFileBodyStream(file: self, stream: try FileBodyStream(path: path))
    }

    /// Keeps the bytes at `destination` (mode 0600), which must not exist yet: a hard link when
    /// it is on the same file system (no copy, whatever the size), a copy otherwise. This file
    /// is still removed when it is released.
    ///
    /// - Throws: ``SatchelError/Code/io`` when `destination` exists or cannot be written.
    public func save(to destination: String) throws(SatchelError) {
        if link(path, destination) == 0 { return }
        guard errno == EXDEV || errno == EPERM || errno == EMLINK else {
            throw Self.failure("cannot save \(path) as \(destination)")
        }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw Self.failure("cannot create \(destination)") }
        var complete = false
        defer {
            close(output)
            if !complete { unlink(destination) }
        }
        try read { (chunk) throws(SatchelError) in
            var offset = 0
            while offset < chunk.count {
                let written = Glibc.write(output, chunk.baseAddress! + offset, chunk.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure("cannot write \(destination)")
                }
                offset += written
            }
        }
        complete = true
    }

    /// Equal when both files hold the same bytes.
    public static func == (lhs: TemporaryFile, rhs: TemporaryFile) -> Bool {
        if lhs === rhs { return true }
        guard lhs.size == rhs.size, let left = try? lhs.readAll(), let right = try? rhs.readAll() else { return false }
        return left == right
    }

    static func failure(_ what: String) -> SatchelError {
        SatchelError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}

/// A file stream that keeps its ``TemporaryFile`` from being removed while it is read.
/// A model property of this type receives a spilled multipart part (``MultipartResponseSerializer``'s
/// typed decoding); it cannot be decoded from anything else.
extension TemporaryFile: Decodable {
    /// Always fails with `DecodingError.typeMismatch`: ``ValueDecoder`` hands a spilled part over
    /// as its file without calling this, and nothing else decodes into one.
    public convenience init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            TemporaryFile.self,
            .init(
                codingPath: decoder.codingPath,
                debugDescription: "a TemporaryFile is decoded only from a multipart part that was spilled to disk"))
    }
}

private final class TemporaryFileBodyStream: BodyStream {
    let file: TemporaryFile
    let stream: FileBodyStream

    init(file: TemporaryFile, stream: FileBodyStream) {
        self.file = file
        self.stream = stream
    }

    var length: Int64? { stream.length }
    var isRewindable: Bool { true }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try stream.read(into: buffer) }
    func rewind() throws { try stream.rewind() }
}
