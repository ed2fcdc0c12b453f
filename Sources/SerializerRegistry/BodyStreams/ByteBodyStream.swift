// SPDX-License-Identifier: Apache-2.0
/// A body stream over bytes in memory: known length, always rewindable.
public final class ByteBodyStream: BodyStream {
    private let bytes: [UInt8]
    private var position = 0

    /// Creates a stream over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The number of bytes.
    public var length: Int64? { Int64(bytes.count) }

    /// Always `true`.
    public var isRewindable: Bool { true }

    /// Copies the next bytes.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + count)]))
        }
        position += count
        return count
    }

    /// Starts over.
    public func rewind() throws {
        position = 0
    }
}
