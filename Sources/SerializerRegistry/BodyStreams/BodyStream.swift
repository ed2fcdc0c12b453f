// SPDX-License-Identifier: Apache-2.0
/// Body bytes pulled by whoever sends them, with a known or unknown length, rewindable where
/// the source allows (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md, "Body streams").
///
/// Multipart bodies, files and in-memory bytes are all body streams; Transport hands them to
/// libcurl unchanged and rewinds them to resend a body after a redirect or an auth challenge.
/// A stream has one reader at a time: it is a reference type with a read position.
public protocol BodyStream: AnyObject {
    /// How many bytes the stream yields from its start, when known before reading.
    var length: Int64? { get }

    /// Whether ``rewind()`` can start the stream over.
    var isRewindable: Bool { get }

    /// Reads the next bytes into `buffer`.
    ///
    /// - Returns: How many bytes were written, from 1 to `buffer.count`; 0 only at the end.
    /// - Throws: ``SatchelError`` (``SatchelError/Code/io`` for a failing source) — never a short
    ///   body passed off as complete.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// Goes back to the first byte.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when the stream is not rewindable.
    func rewind() throws

    /// Reads the bytes that are ready into `buffer`, without waiting for more: what a transfer
    /// calls, pausing on ``BodyRead/wouldBlock`` until the stream's producer wakes it. The
    /// default reads with ``read(into:)``, whose bytes are always ready.
    /// - Throws: As ``read(into:)``.
    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws -> BodyRead
}

/// What a read of the bytes that are ready gives (``BodyStream/readAvailable(into:)``).
public enum BodyRead: Sendable, Hashable {
    /// This many bytes were written, from 1 to the buffer's size.
    case bytes(Int)
    /// No bytes are ready yet; more will come.
    case wouldBlock
    /// The body is complete.
    case end
}

extension BodyStream {
    /// The bytes ``read(into:)`` gives: they are always ready.
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws -> BodyRead {
        let count = try read(into: buffer)
        return count == 0 ? .end : .bytes(count)
    }

    /// Reads everything that is left into memory.
    ///
    /// - Parameter limit: The most bytes accepted.
    /// - Throws: ``SatchelError/Code/limitExceeded`` (`maxBodyBytes`) past `limit`, or the
    ///   stream's own error.
    public func readAll(limit: Int = Limits.default.maxBodyBytes) throws -> [UInt8] {
        var bytes: [UInt8] = []
        if let length, length <= Int64(limit) { bytes.reserveCapacity(Int(length)) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return bytes }
            if bytes.count + count > limit {
                throw SatchelError.limitExceeded(
                    "maxBodyBytes", limit, "a body of more than \(limit) bytes", offset: limit)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
