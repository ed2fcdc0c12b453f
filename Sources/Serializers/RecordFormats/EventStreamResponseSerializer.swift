// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads `text/event-stream` bodies (Server-Sent Events): each event is a record
/// `{"event": type, "data": data, "id": lastEventID}`; a whole body decodes to the array of
/// its events. Parsing follows the WHATWG standard (``ServerSentEventParser``).
///
/// ```swift
/// let events = try Registry.standard().decode(body, contentType: MediaType(type: "text", subtype: "event-stream"))
/// // [{"event": "message", "data": "hello", "id": ""}, …]
/// ```
public struct EventStreamResponseSerializer: RecordStreamSerializer {
    public var name: String { "event-stream" }
    public var acceptableContentTypes: MediaRangeList

    /// `text/event-stream`.
    public static let defaultContentTypes = MediaRangeList(accepting: [MediaType(type: "text", subtype: "event-stream")]
    )

    /// Creates the serializer.
    public init(acceptableContentTypes: MediaRangeList = defaultContentTypes) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// A reader of events as records (the body is UTF-8 whatever the Content-Type's charset
    /// says, as the standard requires).
    public func makeRecordReader(contentType: MediaType?, limits: Limits) -> any RecordReader {
        Reader(parser: ServerSentEventParser(limits: limits))
    }

    /// Hands over each event as a record.
    private final class Reader: RecordReader {
        var parser: ServerSentEventParser

        init(parser: ServerSentEventParser) {
            self.parser = parser
        }

        func feed(
            _ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void
        ) throws(SatchelError) {
            try parser.feed(chunk) { (event) throws(SatchelError) in try deliver(event.value) }
        }

        func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
            parser.finish()
        }
    }
}
