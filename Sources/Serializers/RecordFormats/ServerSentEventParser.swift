// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parses a `text/event-stream` body as it arrives: the WHATWG HTML standard's "event stream
/// interpretation" (§9.2.6), fed chunks of any size.
///
/// UTF-8 with an optional byte order mark at the start (invalid sequences become U+FFFD); lines
/// end with CRLF, LF or CR, also split across chunks; `data` lines are joined by LF; `event` sets
/// the type; `id` sets the last event ID unless it contains NUL; `retry` sets
/// ``reconnectionTime`` when it is all ASCII digits; lines starting with `:` are comments; a
/// line without a colon is a field with an empty value; unknown fields are ignored. A blank
/// line dispatches the event (none when no `data` arrived). At the end of the body an event
/// without its blank line is discarded.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// try parser.feed(chunk) { event in print(event.type, event.data) }
/// ```
public struct ServerSentEventParser: Sendable {
    /// The last event ID (the `id` of the latest event that had one), `""` before any.
    public var lastEventID: String { state.lastEventID }
    /// The reconnection time the stream asked for with `retry`, if it did.
    public var reconnectionTime: Duration? { state.reconnectionTime }
    /// Events dispatched so far.
    public var eventCount: Int { state.eventCount }

    private var lines: LineSplitter
    private var state: State

    /// Creates a parser; an event's lines and data are bounded by ``Limits/maxRecordBytes``, the
    /// number of events by ``Limits/maxRecords``.
    /// - Parameters:
    ///   - limits: The bounds to obey.
    ///   - lastEventID: The last event ID to start from: the one a reconnecting client sent as
    ///     `Last-Event-ID`, which events without an `id` of their own carry on.
    public init(limits: Limits = .default, lastEventID: String = "") {
        lines = LineSplitter(terminators: .any, maxLineBytes: limits.maxRecordBytes)
        state = State(limits: limits)
        state.lastEventID = lastEventID
        state.idBuffer = Array(lastEventID.utf8)
    }

    /// Feeds the next chunk, handing `deliver` every event it completes, in order.
    /// - Throws: ``SatchelError/Code/limitExceeded`` for a line or an event's data over
    ///   ``Limits/maxRecordBytes`` or an event past ``Limits/maxRecords``; what `deliver` throws.
    public mutating func feed(
        _ chunk: UnsafeRawBufferPointer, into deliver: (ServerSentEvent) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try lines.feed(chunk) { (line, _, offset) throws(SatchelError) in
            try state.process(line, offset: offset, deliver)
        }
    }

    /// Feeds the next chunk (see ``feed(_:into:)-(UnsafeRawBufferPointer,_)``).
    public mutating func feed(
        _ chunk: [UInt8], into deliver: (ServerSentEvent) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try chunk.withUnsafeBufferPointer { (chunk) throws(SatchelError) in
            try feed(UnsafeRawBufferPointer(chunk), into: deliver)
        }
    }

    /// Ends the body: a last line without its line end, and an event without its blank line,
    /// are discarded (as the standard says).
    public mutating func finish() {
        _ = lines.finish()
        state.data.removeAll()
        state.eventType.removeAll()
    }
}

extension ServerSentEventParser {
    /// The buffers of the event being read and what outlives it.
    private struct State: Sendable {
        let limits: Limits
        var lastEventID = ""
        var reconnectionTime: Duration?
        var eventCount = 0
        var data: [UInt8] = []
        var eventType: [UInt8] = []
        var idBuffer: [UInt8] = []

        init(limits: Limits) {
            self.limits = limits
        }

        mutating func process(
            _ line: UnsafeBufferPointer<UInt8>, offset: Int, _ deliver: (ServerSentEvent) throws(SatchelError) -> Void
        ) throws(SatchelError) {
            if line.isEmpty { return try dispatch(offset: offset, deliver) }
            if line[0] == UInt8(ascii: ":") { return }  // a comment
            let colon = line.firstIndex(of: UInt8(ascii: ":"))
            let name = UnsafeBufferPointer(rebasing: line[..<(colon ?? line.count)])
            var valueStart = colon.map { $0 + 1 } ?? line.count
            if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            let value = UnsafeBufferPointer(rebasing: line[valueStart...])
            switch Field(name) {
            case .data:
                guard data.count + value.count + 1 <= limits.maxRecordBytes else {
                    throw SatchelError.limitExceeded(
                        "maxRecordBytes", limits.maxRecordBytes,
                        "the data of event \(eventCount + 1) (more than \(limits.maxRecordBytes) bytes)", offset: offset
                    )
                }
                data.append(contentsOf: value)
                data.append(0x0A)
            case .event:
                eventType.removeAll(keepingCapacity: true)
                eventType.append(contentsOf: value)
            case .id:
                if !value.contains(0) {
                    idBuffer.removeAll(keepingCapacity: true)
                    idBuffer.append(contentsOf: value)
                }
            case .retry:
                if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                    var milliseconds = 0
                    for digit in value {
                        milliseconds = min(milliseconds * 10 + Int(digit - UInt8(ascii: "0")), Int(Int32.max))
                    }
                    reconnectionTime = .milliseconds(milliseconds)
                }
            case nil:
                break
            }
        }

        /// The fields the standard names; other names are ignored.
        enum Field {
            case data, event, id, retry

            /// The field `name` names, compared as bytes (case-sensitive, as the standard says).
            init?(_ name: UnsafeBufferPointer<UInt8>) {
                switch name.count {
                case 2 where name[0] == UInt8(ascii: "i") && name[1] == UInt8(ascii: "d"): self = .id
                case 4 where Self.matches(name, "data"): self = .data
                case 5 where Self.matches(name, "event"): self = .event
                case 5 where Self.matches(name, "retry"): self = .retry
                default: return nil
                }
            }

            private static func matches(_ name: UnsafeBufferPointer<UInt8>, _ field: StaticString) -> Bool {
                memcmp(name.baseAddress!, field.utf8Start, name.count) == 0
            }
        }

        mutating func dispatch(
            offset: Int, _ deliver: (ServerSentEvent) throws(SatchelError) -> Void
        ) throws(SatchelError) {
            lastEventID = String(decoding: idBuffer, as: UTF8.self)
            defer { eventType.removeAll(keepingCapacity: true) }
            guard !data.isEmpty else { return }
            data.removeLast()  // the line feed after the last data line
            guard eventCount < limits.maxRecords else {
                throw SatchelError.limitExceeded(
                    "maxRecords", limits.maxRecords, "event \(eventCount + 1)", offset: offset)
            }
            eventCount += 1
            let event = ServerSentEvent(
                type: eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self),
                data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID)
            data.removeAll(keepingCapacity: true)
            try deliver(event)
        }
    }
}
