// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import SatchelTestSupport
import Testing

/// `EventSource` against the fast test server's `/event-source`, which resumes after the
/// `Last-Event-ID` it is sent and logs the one of every connection (`/event-source-log`).
@Suite(.hangGuard)
struct EventSourceTests {
    struct Log: Decodable {
        var lastEventIDs: [String]
    }

    let session: Session

    init() throws {
        // Each connection goes through the session's retry policy; disabled, every request the
        // server logs is one connection of the event source.
        var configuration = SessionConfiguration()
        configuration.retryPolicy = .disabled
        session = try Session(baseURL: try TestServers.shared().fast.absoluteString, configuration: configuration)
    }

    func log(_ key: String) async throws -> [String] {
        try await session.get("event-source-log?key=\(key)").decode(Log.self).lastEventIDs
    }

    func data(of source: EventSource) async throws -> [String] {
        var seen: [String] = []
        for try await event in source { seen.append(event.data) }
        return seen
    }

    @Test(arguments: ["cut", "end"])
    func itReconnectsAfterTheLastEventIDUntil204(drop: String) async throws {
        let key = UUID().uuidString
        let source = EventSource(
            session: session, url: "event-source?key=\(key)&total=5&per=2&retry=10&drop=\(drop)",
            reconnectionTime: .seconds(30))
        #expect(source.state == .connecting)
        // With the default wait of 30 s this would time out: the server's `retry: 10` is obeyed.
        let seen = try await data(of: source)
        #expect(seen == (0..<5).map { #"{"i":\#($0)}"# })
        #expect(source.state == .closed)
        #expect(source.lastEventID == "4")
        #expect(source.reconnectionTime == .milliseconds(10))
        #expect(source.connectionCount == 4)  // 0–1, 2–3, 4, then the 204
        let connections = try await log(key)
        #expect(connections == ["", "1", "3", "4"])
    }

    @Test func aGivenLastEventIDIsSentFromTheFirstConnection() async throws {
        let key = UUID().uuidString
        let source = EventSource(
            session: session, url: "event-source?key=\(key)&total=3&per=5&drop=end", lastEventID: "0")
        var ids: [String] = []
        for try await event in source { ids.append(event.lastEventID) }
        #expect(ids == ["1", "2"])
        #expect(try await log(key) == ["0", "2"])
    }

    @Test(arguments: [("json", SatchelError.Code.unacceptableContentType), ("500", .unacceptableStatusCode)])
    func itStopsWithoutReconnectingOnAFailure(then: String, code: SatchelError.Code) async throws {
        let key = UUID().uuidString
        let source = EventSource(
            session: session, url: "event-source?key=\(key)&total=1&per=1&retry=1&drop=end&then=\(then)")
        var seen: [String] = []
        do {
            for try await event in source { seen.append(event.data) }
            Issue.record("the event source ended without an error")
        } catch let error as SatchelError {
            #expect(error.code == code)
            #expect(error.response != nil)
        }
        #expect(seen == [#"{"i":0}"#])
        #expect(source.state == .closed)
        #expect(try await log(key) == ["", "0"])
    }

    @Test func itWaitsAndRetriesWhenTheServerCannotBeReached() async throws {
        // A port nothing listens on: every connection is refused, and the client keeps trying
        // (waiting the reconnection time each time) until closed.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(listener, $0, length)
                _ = getsockname(listener, $0, &length)
            }
        }
        close(listener)  // bound, never listening, now closed: connections are refused
        let port = UInt16(bigEndian: address.sin_port)
        let source = EventSource(
            session: try Session(), url: "http://127.0.0.1:\(port)/events", reconnectionTime: .milliseconds(20))
        let reader = Task { try await data(of: source) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(source.state == .connecting)
        source.close()
        #expect(try await reader.value == [])
        #expect(source.state == .closed)
        #expect(source.connectionCount == 0)
    }

    @Test func closingWhileConnectedEndsTheIteration() async throws {
        // The gated record stream sends its first event, then waits for a gate that never opens.
        let source = EventSource(session: session, url: "records/sse?count=2&gate=\(UUID().uuidString)")
        var iterator = source.makeAsyncIterator()
        #expect(try await iterator.next()?.data == #"{"i":0}"#)
        #expect(source.state == .open)
        source.close()
        #expect(try await iterator.next() == nil)
        #expect(source.state == .closed)
    }

    @Test func cancellingTheTaskEndsAWaitToReconnect() async throws {
        let key = UUID().uuidString
        let source = EventSource(
            session: session, url: "event-source?key=\(key)&total=5&per=1&drop=end", reconnectionTime: .seconds(50))
        let reader = Task {
            var seen = 0
            for try await _ in source { seen += 1 }
            return seen
        }
        while source.lastEventID != "0" { try await Task.sleep(for: .milliseconds(5)) }
        reader.cancel()
        await #expect(throws: SatchelError.self) { _ = try await reader.value }
        #expect(source.state == .closed)
        #expect(try await log(key) == [""])
    }

    /// An event past `maxRecordBytes` ends the source with the limit's error, without
    /// reconnecting (the next connection would send it again).
    @Test func anEventPastTheLimitEndsItWithoutReconnecting() async throws {
        var configuration = SessionConfiguration()
        configuration.retryPolicy = .disabled
        var limits = Limits.default
        limits.maxRecordBytes = 4096
        let limited = try Session(
            baseURL: try TestServers.shared().fast.absoluteString, configuration: configuration, limits: limits)
        let key = UUID().uuidString
        let source = EventSource(session: limited, url: "event-source?key=\(key)&total=3&per=3&retry=1&big=100000")
        do {
            for try await _ in source {}
            Issue.record("a 100 kB event passed a 4 kB limit")
        } catch let error as SatchelError {
            #expect(error.code == .limitExceeded)
            #expect(error.limit == "maxRecordBytes")
        }
        #expect(source.state == .closed)
        #expect(try await log(key) == [""])
    }
}
