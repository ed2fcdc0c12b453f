// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A body stream over a regular file: sized when created, opened only when first read, and
/// rewindable.
///
/// The file must keep the size it had when the stream was created: a file that shrank or grew
/// before or while it is read fails with ``SatchelError/Code/io`` instead of sending a body of
/// another length than announced.
public final class FileBodyStream: BodyStream {
    /// The file's path.
    public let path: String
    private let size: Int64
    private var descriptor: Int32 = -1
    private var position: Int64 = 0

    /// Sizes the file at `path`.
    ///
    /// - Throws: ``SatchelError/Code/io`` when the file is missing, not a regular file or cannot
    ///   be examined.
    public init(path: String) throws {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw SatchelError(.io, "cannot use \(path) as a body: \(Self.reason())")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw SatchelError(.io, "cannot use \(path) as a body: it is not a regular file")
        }
        size = Int64(status.st_size)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The file's size when the stream was created.
    public var length: Int64? { size }

    /// Always `true`.
    public var isRewindable: Bool { true }

    /// Reads the next bytes, checking that the file still has the announced size.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if descriptor < 0 { try open() }
        let wanted = Int(min(Int64(buffer.count), size - position))
        if wanted == 0 {
            // At the announced end: one more byte means the file grew.
            var probe: UInt8 = 0
            let extra = Glibc.read(descriptor, &probe, 1)
            if extra > 0 {
                throw SatchelError(.io, "\(path) grew while it was being sent (announced \(size) bytes)")
            }
            return 0
        }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, wanted)
            if count < 0 {
                if errno == EINTR { continue }
                throw SatchelError(.io, "cannot read \(path): \(Self.reason())")
            }
            if count == 0 {
                throw SatchelError(
                    .io, "\(path) shrank while it was being sent: it ended after \(position) of \(size) bytes")
            }
            position += Int64(count)
            return count
        }
    }

    /// Starts over from the first byte.
    public func rewind() throws {
        if descriptor >= 0 {
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw SatchelError(.io, "cannot rewind \(path): \(Self.reason())")
            }
        }
        position = 0
    }

    private func open() throws {
        let opened = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw SatchelError(.io, "cannot open \(path): \(Self.reason())") }
        var status = stat()
        guard fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(opened)
            throw SatchelError(.io, "cannot read \(path): it is no longer a regular file")
        }
        guard Int64(status.st_size) == size else {
            close(opened)
            throw SatchelError(.io, "\(path) changed size from \(size) to \(status.st_size) bytes after it was sized")
        }
        descriptor = opened
    }

    private static func reason() -> String {
        String(cString: strerror(errno))
    }
}
