import HTTPTypes
import SerializerRegistry

/// A response whose body is a stream of records — Server-Sent Events, JSON Lines, JSON text
/// sequences — as an async sequence of ``Value``s, each yielded as soon as its last byte has
/// arrived (see ``Session/records(for:)``).
///
/// Backpressure and cancellation are the body stream's: a consumer that falls behind pauses the
/// transfer, and cancelling the iterating task, or calling ``cancel()``, ends it. Iterate once.
///
/// ```swift
/// for try await event in try await session.records("events") {
///     print(event["event"]!, event["data"]!)
/// }
/// ```
public struct RecordStream: AsyncSequence, Sendable {
    public typealias Element = Value

    /// The response head, there before the first record.
    public let response: HTTPResponse
    /// The name of the serializer that reads the records, such as `"event-stream"`.
    public let serializerName: String
    let body: ResponseBodyStream
    let serializer: any RecordReadingSerializer
    let contentType: MediaType
    let limits: Limits

    /// Ends the transfer; iteration then throws ``SatchelError/Code/cancelled``.
    public func cancel() {
        body.cancel()
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(
            chunks: body.makeAsyncIterator(),
            reader: serializer.makeRecordReader(contentType: contentType, limits: limits))
    }

    /// Yields the records in order.
    public struct Iterator: AsyncIteratorProtocol {
        var chunks: ResponseBodyStream.Iterator
        let reader: any RecordReader
        var ready: [Value] = []
        var nextReady = 0
        var ended = false

        /// The next record, or `nil` at the end of the body.
        /// - Throws: ``SatchelError``: a malformed record (after the records before it), a record
        ///   past the limits, a failed or cancelled transfer.
        public mutating func next() async throws -> Value? {
            while nextReady == ready.count {
                if ended { return nil }
                ready.removeAll(keepingCapacity: true)
                nextReady = 0
                if let chunk = try await chunks.next() {
                    try reader.feed(chunk) { ready.append($0) }
                } else {
                    ended = true
                    try reader.finish { ready.append($0) }
                }
            }
            defer { nextReady += 1 }
            return ready[nextReady]
        }
    }
}
