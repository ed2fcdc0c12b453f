// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Synchronization
import Transport

/// A Server-Sent Events client that stays connected, as the WHATWG HTML standard's `EventSource`:
/// when the stream ends or the connection drops it waits the reconnection time and connects
/// again, sending the last event ID it saw as `Last-Event-ID`.
///
/// - The reconnection time is the server's last `retry` field, else the one given (3 seconds by
///   default, as browsers use); every reconnection waits it, whether the last connection ended
///   cleanly or failed to connect at all.
/// - It reconnects after a network failure, a timeout, a refused connection or the end of the
///   body; an event cut off by the drop is discarded (the server sends it again after
///   `Last-Event-ID`).
/// - It ends without an error when the server answers 204 No Content (the standard's way to
///   say "stop"), and with an error — without reconnecting — for any other status but 200, a
///   Content-Type other than `text/event-stream`, a TLS failure or an event past the limits.
/// - ``close()`` or cancelling the iterating task ends it, also while it waits to reconnect.
///
/// Iterate once.
///
/// ```swift
/// let source = EventSource(session: session, url: "notifications")
/// for try await event in source {
///     print(event.type, event.data)
/// }
/// ```
public final class EventSource: AsyncSequence, Sendable {
    /// An event, from whichever connection delivered it.
    public typealias Element = ServerSentEvent

    /// Where the client is, as the standard's `readyState`.
    public enum State: Sendable, Hashable {
        /// Connecting, or waiting to reconnect.
        case connecting
        /// Connected: events are arriving.
        case open
        /// Ended: by ``close()``, cancellation, a 204, or an error.
        case closed
    }

    /// The request each connection sends (with `Accept: text/event-stream`, `Cache-Control:
    /// no-store` and, after the first event ID, `Last-Event-ID`).
    public let request: SessionRequest
    let session: Session
    private let shared: Mutex<Shared>

    /// Creates a client; it connects when iteration starts.
    /// - Parameters:
    ///   - session: The session that sends each connection's request.
    ///   - request: The request; usually a GET.
    ///   - reconnectionTime: The wait before reconnecting until the server sets one with `retry`.
    ///   - lastEventID: The event ID to resume after, sent as `Last-Event-ID` from the first
    ///     connection on (`""` for none).
    public init(
        session: Session, request: SessionRequest, reconnectionTime: Duration = .seconds(3), lastEventID: String = ""
    ) {
        self.session = session
        var request = request
        request.headers[.accept] = "text/event-stream"
        request.headers[.cacheControl] = "no-store"
        self.request = request
        shared = Mutex(Shared(reconnectionTime: reconnectionTime, lastEventID: lastEventID))
    }

    /// Creates a client that GETs `url`; see ``init(session:request:reconnectionTime:lastEventID:)``.
    public convenience init(
        session: Session, url: String, headers: HTTPFields = [:], reconnectionTime: Duration = .seconds(3),
        lastEventID: String = ""
    ) {
        self.init(
            session: session, request: SessionRequest(.get, url, headers: headers), reconnectionTime: reconnectionTime,
            lastEventID: lastEventID)
    }

    /// Where the client is now.
    public var state: State { shared.withLock { $0.state } }
    /// The last event ID seen (or given): what the next connection sends as `Last-Event-ID`.
    public var lastEventID: String { shared.withLock { $0.lastEventID } }
    /// The wait before the next reconnection.
    public var reconnectionTime: Duration { shared.withLock { $0.reconnectionTime } }
    /// Connections made so far (each answered with a response head).
    public var connectionCount: Int { shared.withLock { $0.connectionCount } }

    /// Ends the client: the current connection is cancelled, a wait to reconnect ends, and
    /// iteration returns `nil`.
    public func close() {
        let (body, wait) = shared.withLock { shared in
            shared.state = .closed
            defer { (shared.body, shared.wait) = (nil, nil) }
            return (shared.body, shared.wait)
        }
        body?.cancel()
        wait?.cancel()
    }

    /// An iterator that connects on its first ``Iterator/next()`` and yields the events of
    /// every connection in order.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: self)
    }

    /// What the client shares between its iterator and the callers of its properties.
    struct Shared {
        var state = State.connecting
        var reconnectionTime: Duration
        var lastEventID: String
        var connectionCount = 0
        /// The current connection's body, for ``close()``.
        var body: ResponseBodyStream?
        /// The current wait before reconnecting, for ``close()``.
        var wait: Task<Void, any Error>?
    }

    /// Yields the events of every connection in order.
    public struct Iterator: AsyncIteratorProtocol {
        let source: EventSource
        var chunks: ResponseBodyStream.Iterator?
        var parser = ServerSentEventParser()
        var ready: [ServerSentEvent] = []
        var nextReady = 0
        /// Whether a connection was tried: every later one waits the reconnection time first.
        var attempted = false

        /// The next event, or `nil` once the client is closed.
        /// - Throws: ``SatchelError``: an unacceptable status or Content-Type, a TLS failure, an
        ///   event past the limits, ``SatchelError/Code/cancelled`` when the task was cancelled.
        public mutating func next() async throws -> ServerSentEvent? {
            while nextReady == ready.count {
                ready.removeAll(keepingCapacity: true)
                nextReady = 0
                if source.state == .closed { return nil }
                guard let current = chunks else {
                    if attempted {
                        try await source.waitToReconnect()
                        if source.state == .closed { return nil }
                    }
                    attempted = true
                    try await connect()
                    continue
                }
                try await read(current)
            }
            defer { nextReady += 1 }
            return ready[nextReady]
        }

        /// Connects, unless the client was closed meanwhile.
        mutating func connect() async throws {
            var request = source.request
            let (lastEventID, limits) = (source.lastEventID, source.session.registry.limits)
            if !lastEventID.isEmpty { request.headers[.lastEventID] = lastEventID }
            let body: ResponseBodyStream
            do {
                body = try await source.session.bytes(for: request)
            } catch {
                try source.endUnlessReconnecting(after: error)
                return
            }
            guard source.opened(body) else { return body.cancel() }
            guard body.response.status.code == 200 else {
                body.cancel()
                source.end()
                if body.response.status.code == 204 { return }
                throw SatchelError(
                    .unacceptableStatusCode,
                    "\(request.url) answered \(body.response.status.code) to an event stream request"
                ).attaching(response: body.response, body: [])
            }
            guard let contentType = try? body.response.contentType,
                EventStreamResponseSerializer.defaultContentTypes.accepts(contentType)
            else {
                body.cancel()
                source.end()
                throw SatchelError(
                    .unacceptableContentType,
                    "\(request.url): Content-Type \(body.response.headerFields[.contentType] ?? "(none)") is not text/event-stream"
                ).attaching(response: body.response, body: [])
            }
            parser = ServerSentEventParser(limits: limits, lastEventID: lastEventID)
            chunks = body.makeAsyncIterator()
        }

        /// Reads the next chunk of the current connection; at its end, or when it drops, the
        /// next call reconnects.
        mutating func read(_ current: ResponseBodyStream.Iterator) async throws {
            var current = current
            let chunk: [UInt8]?
            do {
                chunk = try await current.next()
            } catch {
                chunks = nil
                try source.endUnlessReconnecting(after: error)
                return
            }
            guard let chunk else {
                chunks = nil
                parser.finish()
                source.disconnected()
                return
            }
            chunks = current
            do {
                try parser.feed(chunk) { ready.append($0) }
            } catch {
                source.close()
                throw error
            }
            source.update(lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime)
        }
    }
}

extension EventSource {
    /// Records a new connection; `false` when the client was closed meanwhile.
    fileprivate func opened(_ body: ResponseBodyStream) -> Bool {
        shared.withLock { shared in
            guard shared.state != .closed else { return false }
            shared.connectionCount += 1
            shared.state = .open
            shared.body = body
            return true
        }
    }

    fileprivate func disconnected() {
        shared.withLock { shared in
            shared.body = nil
            if shared.state != .closed { shared.state = .connecting }
        }
    }

    fileprivate func end() {
        shared.withLock { shared in
            shared.body = nil
            shared.state = .closed
        }
    }

    fileprivate func update(lastEventID: String, reconnectionTime: Duration?) {
        shared.withLock { shared in
            shared.lastEventID = lastEventID
            if let reconnectionTime { shared.reconnectionTime = reconnectionTime }
        }
    }

    /// After a failed connection or a dropped one: to reconnect when the failure is the
    /// network's (the standard's "reestablish the connection"); else the client ends, silently
    /// when it was closed, with the error otherwise.
    fileprivate func endUnlessReconnecting(after error: any Error) throws {
        let error = SatchelError.wrap(error)
        if state == .closed { return }
        switch error.code {
        case .networkFailure, .timedOut, .cannotConnect:
            disconnected()
        default:
            end()
            throw error
        }
    }

    /// Waits the reconnection time, or until ``close()`` or the task's cancellation.
    fileprivate func waitToReconnect() async throws {
        let wait = shared.withLock { shared -> Task<Void, any Error>? in
            guard shared.state != .closed else { return nil }
            let time = shared.reconnectionTime
            shared.wait = Task { try await Task.sleep(for: time) }
            return shared.wait
        }
        guard let wait else { return }
        do {
            try await withTaskCancellationHandler {
                try await wait.value
            } onCancel: {
                wait.cancel()
            }
        } catch {
            if Task.isCancelled {
                end()
                throw SatchelError(.cancelled, "\(request.url): the task reading the event source was cancelled")
            }
        }
        shared.withLock { $0.wait = nil }
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`, which a reconnecting event source sends.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
