// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import SatchelTestSupport
import Testing

/// The typed forms of `session.records(for:)` against the fast test server's `/records/FORMAT`.
@Suite(.hangGuard)
struct RecordStreamTypedTests {
    struct Record: Decodable, Equatable, Sendable {
        var i: Int
    }

    struct Other: Decodable, Sendable {
        var name: String
    }

    let session: Session

    init() throws {
        session = try Session(baseURL: try TestServers.shared().fast.absoluteString)
    }

    @Test func eventsAreDecodedFromTheirData() async throws {
        let events = try await session.records("records/sse?count=4").events(decoding: Record.self)
        var seen: [ServerSentEvent.Decoded<Record>] = []
        for try await event in events { seen.append(event) }
        #expect(seen == (0..<4).map { .init(type: "message", data: Record(i: $0), lastEventID: "\($0)") })
    }

    @Test func eventsAsTheyAre() async throws {
        var seen: [ServerSentEvent] = []
        for try await event in try await session.records("records/sse?count=2").events() { seen.append(event) }
        #expect(seen == [.init(data: #"{"i":0}"#, lastEventID: "0"), .init(data: #"{"i":1}"#, lastEventID: "1")])
    }

    @Test func aTerminatorEndsTheEventsAndTheTransfer() async throws {
        // The server holds record 2 until the gate for record 1 opens, which never happens: only
        // a stream that stops at the terminator ends.
        let gate = UUID().uuidString
        let stream = try await session.records("records/sse?count=3&gate=\(gate)")
        var seen: [Int] = []
        var iterator = try stream.events(decoding: Record.self, until: #"{"i":1}"#).makeAsyncIterator()
        seen.append(try #require(try await iterator.next()).data.i)
        _ = try await session.result(for: SessionRequest(.get, "gate?key=\(gate)&i=0")).get()
        #expect(try await iterator.next() == nil)
        #expect(seen == [0])
    }

    @Test func dataThatIsNotTheTypeNamesTheEvent() async throws {
        let events = try await session.records("records/sse?count=2").events(decoding: Other.self)
        do {
            for try await _ in events {}
            Issue.record("an event whose data has no name decoded")
        } catch let error as SatchelError {
            #expect(error.code == .valueNotFound)
            #expect(error.message.hasPrefix("event 1 (type message, id \"0\"): "), "\(error.message)")
        }
    }

    @Test(arguments: ["ndjson", "json-seq"])
    func linesAreDecodedIntoModels(format: String) async throws {
        var seen: [Record] = []
        for try await record in try await session.records("records/\(format)?count=5").lines(of: Record.self) {
            seen.append(record)
        }
        #expect(seen == (0..<5).map(Record.init))
    }

    @Test(arguments: ["ndjson", "json-seq"])
    func aLineThatIsNotTheTypeNamesTheLine(format: String) async throws {
        let lines = try await session.records("records/\(format)?count=3").lines(of: Other.self)
        do {
            for try await _ in lines {}
            Issue.record("a record without a name decoded")
        } catch let error as SatchelError {
            #expect(error.code == .valueNotFound)
            #expect(error.message.hasPrefix(format == "ndjson" ? "line 1: " : "text 1: "), "\(error.message)")
        }
    }

    @Test func partsArriveWithTheirValues() async throws {
        var values: [Value] = []
        var types: [String?] = []
        for try await part in try await session.records("records/multipart?count=3").parts {
            values.append(part.value)
            types.append(part.part.contentType)
        }
        #expect(values == [["i": 0], ["i": 1], ["i": 2]])
        #expect(types == Array(repeating: "application/json", count: 3))
    }

    @Test(arguments: [("json-page", "/data/items"), ("atom", "/a:feed/a:entry")])
    func elementsAreDecodedIntoModels(format: String, path: String) async throws {
        let elements = try await session.records(
            "records/\(format)?count=5", each: path, namespaces: ["a": "http://www.w3.org/2005/Atom"])
        var seen: [Record] = []
        for try await record in try elements.elements(of: Record.self) { seen.append(record) }
        #expect(seen == (0..<5).map(Record.init))
        #expect(elements.rest == (format == "json-page" ? ["data": ["items": []], "next": "cursor"] : nil))
        let others = try await session.records(
            "records/\(format)?count=2", each: path, namespaces: ["a": "http://www.w3.org/2005/Atom"])
        do {
            for try await _ in try others.elements(of: Other.self) {}
            Issue.record("an element without a name decoded")
        } catch let error as SatchelError {
            #expect(error.code == .valueNotFound)
            #expect(
                error.message.hasPrefix(format == "json-page" ? "/data/items/0: " : "/a:feed/a:entry[1]: "),
                "\(error.message)")
        }
    }

    @Test func aTypedFormOfAnotherFormatIsRefused() async throws {
        let cases: [(String, (RecordStream<Value>) throws -> Void)] = [
            ("records/sse", { _ = try $0.elements(of: Record.self) }),
            ("records/ndjson", { _ = try $0.events() }),
            ("records/sse", { _ = try $0.lines(of: Record.self) }),
            ("records/ndjson", { _ = try $0.parts }),
            ("records/multipart", { _ = try $0.events(decoding: Record.self) }),
        ]
        for (path, typed) in cases {
            // Gated: the server holds the second record back, so only a cancellation ends the body.
            let stream = try await session.records("\(path)?count=2&gate=\(UUID().uuidString)")
            #expect {
                try typed(stream)
            } throws: { error in
                (error as? SatchelError)?.code == .unacceptableContentType
            }
            // The refusal cancelled the transfer.
            await #expect(throws: SatchelError.self) { for try await _ in stream {} }
        }
    }
}
