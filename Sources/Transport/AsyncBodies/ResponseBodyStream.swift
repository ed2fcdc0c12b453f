// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// A response whose body arrives as an async sequence of chunks, with backpressure: when the
/// consumer falls behind by about 1 MiB the transfer pauses, and it resumes as chunks are taken.
///
/// Iterate once. Cancelling the iterating task, or calling ``cancel()``, ends the transfer.
public struct ResponseBodyStream: AsyncSequence, Sendable {
    /// A chunk of the body: the bytes as they arrived.
    public typealias Element = [UInt8]

    /// The response head.
    public let response: HTTPResponse
    let channel: ChunkChannel

    /// Ends the transfer; iteration then throws ``SatchelError/Code/cancelled``.
    public func cancel() {
        channel.cancellation.cancel(SatchelError(.cancelled, "the body stream was cancelled"))
    }

    /// An iterator that yields the body's chunks in order.
    public func makeAsyncIterator() -> Iterator {
        Iterator(channel: channel)
    }

    /// Yields the body's chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        let channel: ChunkChannel

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: ``SatchelError`` when the transfer failed or was cancelled.
        public mutating func next() async throws -> [UInt8]? {
            let channel = channel
            return try await withTaskCancellationHandler {
                try await channel.next()
            } onCancel: {
                channel.cancellation.cancel(SatchelError(.cancelled, "the task iterating the body was cancelled"))
            }
        }
    }
}
