// SPDX-License-Identifier: Apache-2.0
import Satchel

extension DemoSteps {
    /// Follows `/sse` with an `EventSource`: each event printed the moment it arrives (the
    /// server sends one every 150 ms), then the reconnection with `Last-Event-ID`, which the
    /// server answers with 204, the standard's "stop".
    @Sendable func serverSentEvents() async throws -> String {
        let source = EventSource(session: try session(), url: "sse?count=4&interval_ms=150")
        reporter.sent("GET /sse?count=4&interval_ms=150  Accept: text/event-stream")
        let started = ContinuousClock.now
        var events: [ServerSentEvent] = []
        for try await event in source {
            let elapsed = Int(((ContinuousClock.now - started) / .milliseconds(1)).rounded())
            reporter.note("\(elapsed) ms  id \(event.lastEventID)  \(event.type)  \(event.data)")
            events.append(event)
        }
        try check(
            events.map(\.lastEventID) == ["0", "1", "2", "3"], "the events' IDs were \(events.map(\.lastEventID))")
        try check(source.connectionCount == 2, "\(source.connectionCount) connections instead of 2")
        reporter.got("204 No Content after Last-Event-ID: \(source.lastEventID)")
        return "4 events, each printed as it arrived; the reconnection sent Last-Event-ID: 3 and the server said stop"
    }
}
