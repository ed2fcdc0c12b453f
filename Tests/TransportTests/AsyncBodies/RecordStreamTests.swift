// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// `session.records(for:)` against the fast test server's `/records/FORMAT`, which can hold each
/// record back until the client says it has the previous one (`gate`): a record that were
/// delivered only with a later one, or at the end, would stall the test.
@Suite(.hangGuard)
struct RecordStreamTests {
    let servers: TestServers
    let session: Session

    init() throws {
        servers = try TestServers.shared()
        session = try SessionSupport.session(servers.fast)
    }

    @Test(arguments: ["sse", "ndjson", "json-seq", "multipart"])
    func eachRecordArrivesBeforeTheNextIsSent(format: String) async throws {
        let gate = UUID().uuidString
        let records = try await session.records("records/\(format)?count=5&gate=\(gate)")
        let names = ["sse": "event-stream", "ndjson": "json-lines", "json-seq": "json-seq", "multipart": "multipart"]
        #expect(records.serializerName == names[format])
        #expect(records.response.status.code == 200)
        var seen: [Value] = []
        for try await record in records {
            seen.append(format == "multipart" ? record["value"] ?? .null : record)
            let index = seen.count - 1
            // Only now may the server send the next record.
            _ = try await session.result(for: SessionRequest(.get, "gate?key=\(gate)&i=\(index)")).get()
        }
        let expected: [Value] = (0..<5).map { index in
            let value: Value = ["i": .integer(Int64(index))]
            return format == "sse"
                ? ["event": "message", "data": .string("{\"i\":\(index)}"), "id": .string("\(index)")] : value
        }
        #expect(seen == expected)
    }

    @Test func aResponseThatIsNotARecordStreamIsRefused() async throws {
        await #expect(throws: SatchelError.self) { _ = try await session.records("large/10") }
        do {
            _ = try await session.records("echo-headers")
            Issue.record("a JSON document is not a record stream")
        } catch {
            #expect(error.code == .unacceptableContentType)
            #expect(error.response?.status.code == 200)
        }
    }

    @Test func cancellingTheStreamEndsTheTransfer() async throws {
        let records = try await session.records("records/ndjson?count=3&gate=\(UUID().uuidString)")
        var iterator = records.makeAsyncIterator()
        #expect(try await iterator.next() == ["i": 0])
        records.cancel()  // the server waits for a gate that never opens
        await #expect(throws: SatchelError.self) { _ = try await iterator.next() }
    }

    /// A body cut after its head and first records reached the consumer is an error, never a
    /// retry whose records would follow the first ones a second time (the retry policy here
    /// retries network failures).
    @Test func aStreamCutAfterItsHeadIsNotRetried() async throws {
        let key = UUID().uuidString
        var policy = RetryPolicy()
        policy.exponentialBackoffScale = 0.01
        let retrying = try SessionSupport.session(servers.fast, retry: policy)
        let stream = try await retrying.records("event-source?key=\(key)&total=3&per=2")
        var data: [Value] = []
        await #expect(throws: SatchelError.self) {
            for try await event in stream { data.append(event["data"] ?? .null) }
        }
        #expect(data == [#"{"i":0}"#, #"{"i":1}"#])
        let log = try await retrying.get("event-source-log?key=\(key)").value
        #expect(log == ["lastEventIDs": [""]])
    }

    /// One large document's elements (`records(for:each:)`) arrive as the records do: each one
    /// before the server sends the next.
    @Test(arguments: [("json-page", ""), ("atom", "/feed/entry")])
    func eachElementArrivesBeforeTheNextIsSent(format: String, path: String) async throws {
        let gate = UUID().uuidString
        let pointer = format == "json-page" ? "/data/items" : path
        let elements = try await session.records("records/\(format)?count=4&gate=\(gate)", each: pointer)
        #expect(elements.serializerName == (format == "json-page" ? "json" : "xml"))
        var seen: [Value] = []
        for try await element in elements {
            seen.append(format == "json-page" ? element : element["children"]?[0]?["children"]?[0] ?? .null)
            #expect(elements.rest == nil)  // not before the end
            _ = try await session.result(for: SessionRequest(.get, "gate?key=\(gate)&i=\(seen.count - 1)")).get()
        }
        #expect(seen == (format == "json-page" ? (0..<4).map { ["i": .integer(Int64($0))] } : ["0", "1", "2", "3"]))
        #expect(elements.rest == (format == "json-page" ? ["data": ["items": []], "next": "cursor"] : nil))
    }

    @Test func elementsNeedAJSONOrXMLDocumentAndAPathItsFormatReads() async throws {
        do {
            _ = try await session.records("records/ndjson?count=2", each: "")
            Issue.record("JSON Lines is not one document")
        } catch {
            #expect(error.code == .unacceptableContentType && error.response?.status.code == 200)
        }
        for (format, path) in [("json-page", "data/items"), ("atom", "/feed/x:entry")] {
            do {
                _ = try await session.records("records/\(format)?count=2&gate=\(UUID().uuidString)", each: path)
                Issue.record("\(path) is no path for \(format)")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
        let nothing = try await session.records("records/json-page?count=2", each: "/data/missing")
        await #expect(throws: SatchelError.self) { for try await _ in nothing {} }
    }
}
