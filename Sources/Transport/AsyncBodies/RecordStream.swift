// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// A response whose body is a stream of records — Server-Sent Events, JSON Lines, JSON text
/// sequences, multipart parts — as an async sequence, each record yielded as soon as its last
/// byte has arrived (see ``Session/records(for:)``).
///
/// ``Session/records(for:)`` yields ``Value``s; `import Satchel` adds the typed forms
/// (`events(decoding:)`, `lines(of:)`, `parts`), which are record streams of other types.
///
/// Backpressure and cancellation are the body stream's: a consumer that falls behind pauses the
/// transfer, and cancelling the iterating task, or calling ``cancel()``, ends it. Iterate once.
///
/// ```swift
/// for try await event in try await session.records("events") {
///     print(event["event"]!, event["data"]!)
/// }
/// ```
public struct RecordStream<Record>: AsyncSequence, Sendable {
    /// A record: a ``Value`` from ``Session/records(for:)``, the decoded type in the typed forms.
    public typealias Element = Record

    /// The response head, there before the first record.
    public let response: HTTPResponse
    /// The name of the serializer the registry chose for the body, such as `"event-stream"`.
    public let serializerName: String
    /// The registry's serializer for the body.
    package let serializer: any RecordReadingSerializer
    /// The body's Content-Type.
    package let contentType: MediaType
    /// The registry's limits.
    package let limits: Limits
    let body: ResponseBodyStream
    let makeDecoder: @Sendable () -> RecordDecoder<Record>

    /// A stream of the records `makeDecoder`'s decoders read from `body`.
    package init(
        response: HTTPResponse, serializer: any RecordReadingSerializer, contentType: MediaType, limits: Limits,
        body: ResponseBodyStream, makeDecoder: @escaping @Sendable () -> RecordDecoder<Record>
    ) {
        self.response = response
        serializerName = serializer.name
        self.serializer = serializer
        self.contentType = contentType
        self.limits = limits
        self.body = body
        self.makeDecoder = makeDecoder
    }

    /// The same body read by other decoders: how the typed forms are made.
    package func reading<Other>(
        with makeDecoder: @escaping @Sendable () -> RecordDecoder<Other>
    ) -> RecordStream<Other> {
        RecordStream<Other>(
            response: response, serializer: serializer, contentType: contentType, limits: limits, body: body,
            makeDecoder: makeDecoder)
    }

    /// The rest of a document read with ``Session/records(for:each:namespaces:)`` once iteration
    /// has ended: JSON's envelope with the array left empty (its `next` cursor, its totals);
    /// `nil` before the end, for XML, and for the other record streams.
    public var rest: Value? {
        (serializer as? ElementRecordsSerializer)?.rest
    }

    /// Ends the transfer; iteration then throws ``SatchelError/Code/cancelled``.
    public func cancel() {
        body.cancel()
    }

    /// An iterator that yields each record as soon as its last byte has arrived.
    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: body.makeAsyncIterator(), decoder: makeDecoder())
    }

    /// Yields the records in order.
    public struct Iterator: AsyncIteratorProtocol {
        var chunks: ResponseBodyStream.Iterator
        let decoder: RecordDecoder<Record>
        var ready: [Record] = []
        var nextReady = 0
        var ended = false

        /// The next record, or `nil` at the end of the body (or where the decoder ends the stream).
        /// - Throws: ``SatchelError``: a malformed record (after the records before it), a record
        ///   past the limits, a failed or cancelled transfer.
        public mutating func next() async throws -> Record? {
            while nextReady == ready.count {
                if ended { return nil }
                ready.removeAll(keepingCapacity: true)
                nextReady = 0
                if let chunk = try await chunks.next() {
                    let more = try chunk.withUnsafeBytes { chunk in try decoder.feed(chunk) { ready.append($0) } }
                    if !more {
                        ended = true
                        chunks.channel.cancellation.cancel(SatchelError(.cancelled, "the record stream ended early"))
                    }
                } else {
                    ended = true
                    try decoder.finish { ready.append($0) }
                }
            }
            defer { nextReady += 1 }
            return ready[nextReady]
        }
    }
}

/// Reads one iteration's records out of body chunks (see ``RecordStream/reading(with:)``).
package struct RecordDecoder<Record> {
    /// Feeds a chunk, handing over each record it completes; returns `false` to end the stream
    /// after these records (and stop the transfer).
    package var feed: (UnsafeRawBufferPointer, (Record) throws(SatchelError) -> Void) throws -> Bool
    /// Ends the body, handing over the records its end completes.
    package var finish: ((Record) throws(SatchelError) -> Void) throws -> Void

    /// A decoder of its two steps.
    package init(
        feed: @escaping (UnsafeRawBufferPointer, (Record) throws(SatchelError) -> Void) throws -> Bool,
        finish: @escaping ((Record) throws(SatchelError) -> Void) throws -> Void
    ) {
        self.feed = feed
        self.finish = finish
    }

    /// A decoder that reads to the end of the body.
    package init(
        toTheEnd feed: @escaping (UnsafeRawBufferPointer, (Record) throws(SatchelError) -> Void) throws -> Void,
        finish: @escaping ((Record) throws(SatchelError) -> Void) throws -> Void
    ) {
        self.init(
            feed: { chunk, deliver in
                try feed(chunk, deliver)
                return true
            }, finish: finish)
    }

    /// The records of a registry's record reader, as they are.
    package init(_ reader: any RecordReader) where Record == Value {
        self.init(toTheEnd: { try reader.feed($0, into: $1) }, finish: { try reader.finish(into: $0) })
    }
}
