// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension MultipartFormData {
    /// The whole body in memory, for callers that want bytes rather than a stream.
    ///
    /// - Parameter limit: The most bytes accepted; ``Limits/maxBodyBytes`` by default.
    /// - Throws: The errors of ``makeBodyStream()`` and ``MultipartBodyStream/bytes(limit:)``.
    public func bytes(limit: Int = Limits.default.maxBodyBytes) throws(SatchelError) -> [UInt8] {
        try makeBodyStream().bytes(limit: limit)
    }

    /// Writes the whole body to the file at `path`, atomically: nothing is left at `path` (or
    /// `path` keeps its old contents) when any part fails.
    ///
    /// - Returns: The stream that was written, for its ``MultipartBodyStream/sha256Digest`` and
    ///   ``MultipartBodyStream/bytesSent``.
    /// - Throws: The errors of ``makeBodyStream()`` and ``MultipartBodyStream/write(to:)``.
    @discardableResult
    public func write(to path: String) throws(SatchelError) -> MultipartBodyStream {
        let stream = try makeBodyStream()
        try stream.write(to: path)
        return stream
    }
}
