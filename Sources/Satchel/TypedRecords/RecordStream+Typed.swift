// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Transport

extension RecordStream where Record == Value {
    /// The events of a `text/event-stream` response, as they are.
    ///
    /// ```swift
    /// for try await event in try await session.records("feed").events() {
    ///     print(event.type, event.lastEventID, event.data)
    /// }
    /// ```
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when the response is not an event
    ///   stream (the transfer is then cancelled).
    public func events() throws(SatchelError) -> RecordStream<ServerSentEvent> {
        try requireEventStream()
        let limits = limits
        return reading {
            var parser = ServerSentEventParser(limits: limits)
            return RecordDecoder(toTheEnd: { try parser.feed($0, into: $1) }, finish: { _ in parser.finish() })
        }
    }

    /// The events of a `text/event-stream` response with each event's data decoded from JSON
    /// into `T` — what streaming APIs (LLM completions, change feeds) send.
    ///
    /// ```swift
    /// let stream = try await session.records(for: completionRequest)
    /// for try await event in try stream.events(decoding: Delta.self, until: "[DONE]") {
    ///     print(event.data.content, terminator: "")
    /// }
    /// ```
    /// - Parameters:
    ///   - type: The type of each event's data.
    ///   - terminator: Data that ends the stream instead of being decoded (OpenAI's `[DONE]`);
    ///     the transfer is then stopped. `nil` to read to the end of the body.
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when the response is not an event
    ///   stream. Iteration throws for data that is not `T` (`event N: …`, with the key path).
    public func events<T: Decodable & SendableMetatype>(
        decoding type: T.Type, until terminator: String? = nil
    ) throws(SatchelError) -> RecordStream<ServerSentEvent.Decoded<T>> {
        try requireEventStream()
        let limits = limits
        return reading {
            var parser = ServerSentEventParser(limits: limits)
            let decoder = JSONModelDecoder(limits: limits)
            var count = 0
            return RecordDecoder(
                feed: { chunk, deliver in
                    var more = true
                    try parser.feed(chunk) { (event) throws(SatchelError) in
                        guard more, event.data != terminator else { return more = false }
                        count += 1
                        try deliver(Self.decode(event, as: T.self, number: count, with: decoder))
                    }
                    return more
                }, finish: { _ in parser.finish() })
        }
    }

    /// The records of a JSON Lines response (or a JSON text sequence) decoded into `T`: each
    /// line straight into the model, with no ``Value`` in between.
    ///
    /// ```swift
    /// for try await entry in try await session.records("logs").lines(of: LogEntry.self) {
    ///     print(entry.message)
    /// }
    /// ```
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when the response is neither.
    ///   Iteration throws for a line that is not `T` (`line N`, with the key path).
    public func lines<T: Decodable & SendableMetatype>(of type: T.Type) throws(SatchelError) -> RecordStream<T> {
        guard serializer is JSONLinesResponseSerializer || serializer is JSONTextSequenceResponseSerializer else {
            throw refusal("JSON Lines or a JSON text sequence")
        }
        let (serializer, contentType, limits) = (serializer, contentType, limits)
        return reading {
            let reader = serializer.makeRecordReader(contentType: contentType, limits: limits)
            if let lines = reader as? JSONLinesReader {
                return RecordDecoder(
                    toTheEnd: { try lines.feed($0, as: T.self, into: $1) },
                    finish: { try lines.finish(as: T.self, into: $0) })
            }
            var count = 0
            let decode = { (value: Value, deliver: (T) throws(SatchelError) -> Void) throws(SatchelError) in
                count += 1
                do throws(SatchelError) {
                    try deliver(ValueDecoder().decode(T.self, from: value))
                } catch {
                    throw error.naming("text \(count)")
                }
            }
            return RecordDecoder(
                toTheEnd: { chunk, deliver in
                    try reader.feed(chunk) { (value) throws(SatchelError) in try decode(value, deliver) }
                },
                finish: { deliver in try reader.finish { (value) throws(SatchelError) in try decode(value, deliver) } })
        }
    }

    /// The elements of a document read with `Session.records(for:each:namespaces:)`, each
    /// decoded straight into `T`: JSON by the typed JSON decoder from the element's bytes, XML by
    /// ``XMLModelDecoder``'s mapping with the element as the root.
    ///
    /// ```swift
    /// let entries = try await session.records("feed.atom", each: "/feed/entry")
    /// for try await entry in try entries.elements(of: Entry.self) { print(entry.title) }
    /// ```
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when the stream is not a
    ///   document's elements. Iteration throws for an element that is not `T` (naming the
    ///   element, with the key path).
    public func elements<T: Decodable & SendableMetatype>(of type: T.Type) throws(SatchelError) -> RecordStream<T> {
        guard let serializer = serializer as? ElementRecordsSerializer else {
            throw refusal("a document read with records(for:each:)")
        }
        let (contentType, limits) = (contentType, limits)
        return reading {
            do {
                let reader = try serializer.makeElementReader(contentType: contentType, limits: limits)
                return RecordDecoder(
                    toTheEnd: { try reader.feed($0, as: T.self, into: $1) },
                    finish: { try reader.finish(as: T.self, into: $0) })
            } catch {
                return RecordDecoder(toTheEnd: { _, _ in throw error }, finish: { _ in throw error })
            }
        }
    }

    /// The parts of a `multipart/*` response as they complete, each with its value decoded by
    /// its own Content-Type (a large part spills to a temporary file, as in a whole-body decode).
    ///
    /// ```swift
    /// for try await part in try await session.records("batch").parts {
    ///     print(part.part.name ?? "-", part.value)
    /// }
    /// ```
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when the response is not multipart.
    public var parts: RecordStream<MultipartParts.Element> {
        get throws(SatchelError) {
            guard let serializer = serializer as? MultipartResponseSerializer else { throw refusal("multipart") }
            let (contentType, limits) = (contentType, limits)
            return reading {
                let reader = MultipartPartReader(serializer: serializer, contentType: contentType, limits: limits)
                return RecordDecoder(
                    toTheEnd: { try reader.feed($0, into: $1) }, finish: { try reader.finish(into: $0) })
            }
        }
    }

    private func requireEventStream() throws(SatchelError) {
        guard serializer is EventStreamResponseSerializer else { throw refusal("an event stream") }
    }

    /// The error for a typed form the body's format does not have; the transfer is cancelled.
    private func refusal(_ wanted: String) -> SatchelError {
        cancel()
        return SatchelError(
            .unacceptableContentType,
            "the response's Content-Type \(contentType) is not \(wanted) (its serializer is \"\(serializerName)\")"
        ).attaching(response: response, body: [])
    }

    /// `event`'s data decoded as `T`, errors naming the event.
    private static func decode<T: Decodable>(
        _ event: ServerSentEvent, as type: T.Type, number: Int, with decoder: JSONModelDecoder
    ) throws(SatchelError) -> ServerSentEvent.Decoded<T> {
        do {
            return try event.decoded(as: type, with: decoder)
        } catch {
            throw error.naming("event \(number) (type \(event.type), id \"\(event.lastEventID)\")")
        }
    }
}
