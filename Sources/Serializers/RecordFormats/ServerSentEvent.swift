// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// One event of a `text/event-stream` body, as the WHATWG HTML standard's event stream
/// interpretation dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the last `event` field of the event, or `"message"`.
    public var type: String
    /// The `data` lines of the event joined by line feeds.
    public var data: String
    /// The last event ID the stream had set when the event was dispatched (`""` when none):
    /// what a reconnecting client sends as `Last-Event-ID`.
    public var lastEventID: String

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }

    /// The event as a record: `{"event": type, "data": data, "id": lastEventID}`.
    public var value: Value {
        .object(["event": .string(type), "data": .string(data), "id": .string(lastEventID)])
    }
}

extension ServerSentEvent {
    /// An event whose data was decoded into a model (see `RecordStream.events(decoding:until:)`).
    public struct Decoded<Payload> {
        /// The event type: the last `event` field of the event, or `"message"`.
        public var type: String
        /// The event's data, decoded.
        public var data: Payload
        /// The last event ID when the event was dispatched (`""` when none).
        public var lastEventID: String

        /// Creates a decoded event.
        public init(type: String = "message", data: Payload, lastEventID: String = "") {
            self.type = type
            self.data = data
            self.lastEventID = lastEventID
        }
    }
}

extension ServerSentEvent {
    /// The event with its data decoded from JSON into `T` (what streaming APIs send).
    /// - Parameters:
    ///   - type: The type of the data.
    ///   - decoder: The JSON decoder, with its options and limits; reuse one for a stream.
    /// - Throws: ``SatchelError``: the data is not JSON, or not `T` (with the key path).
    public func decoded<T: Decodable>(
        as type: T.Type, with decoder: JSONModelDecoder = JSONModelDecoder()
    ) throws(SatchelError) -> Decoded<T> {
        var text = data
        let payload: T
        do {
            // Untyped: `withUTF8` rethrows as `any Error` (a `Result` or an optional out of the
            // closure would cost a generic metadata look-up per event).
            payload = try text.withUTF8 { text in try decoder.decode(type, from: UnsafeRawBufferPointer(text)) }
        } catch {
            throw error as? SatchelError ?? SatchelError(.internal, "\(error)")
        }
        return Decoded(type: self.type, data: payload, lastEventID: lastEventID)
    }
}

extension ServerSentEvent.Decoded: Sendable where Payload: Sendable {}
extension ServerSentEvent.Decoded: Equatable where Payload: Equatable {}
extension ServerSentEvent.Decoded: Hashable where Payload: Hashable {}
