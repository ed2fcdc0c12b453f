// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import SatchelTestSupport
import Testing

/// `RequestBody.jsonLines`: records encoded line by line while they are sent.
@Suite(.hangGuard)
struct JSONLinesBodyTests {
    struct Entry: Codable, Equatable, Sendable {
        var id: Int
        var message: String
        var score: Double
    }

    struct Unencodable: Encodable, Sendable {
        var value: Double
    }

    let session: Session

    init() throws {
        session = try Session(baseURL: try TestServers.shared().fast.absoluteString)
    }

    /// Each record is one line, as a JSON Lines reader reads it back; the server counts the
    /// lines as they arrive (`/ingest`), and the body is chunked with the NDJSON type.
    @Test func recordsAreSentAsOneLineEach() async throws {
        let entries = (0..<2000).map { Entry(id: $0, message: "entry \($0)\nwith a newline", score: Double($0) / 8) }
        let (stream, input) = AsyncStream.makeStream(of: Entry.self)
        let producer = Task {
            for entry in entries { input.yield(entry) }
            input.finish()
        }
        let response = try await session.upload(.jsonLines(stream), to: "ingest?key=\(UUID().uuidString)")
        await producer.value
        #expect(response.value?["lines"] == 2000)
        #expect(response.value?["chunked"] == true)

        // The same records through the JSON Lines reader give the entries back.
        var lines: [UInt8] = []
        let encoder = JSONModelEncoder()
        for entry in entries { lines += try encoder.encode(entry) + [0x0A] }
        #expect(response.value?["bytes"] == .integer(Int64(lines.count)))
        let reader = JSONLinesReader()
        var decoded: [Entry] = []
        try reader.feed(lines, as: Entry.self) { decoded.append($0) }
        try reader.finish(as: Entry.self) { decoded.append($0) }
        #expect(decoded == entries)
    }

    @Test func theContentTypeIsNDJSONUnlessGiven() async throws {
        let one = AsyncStream<Entry> { continuation in
            continuation.yield(Entry(id: 1, message: "m", score: 0))
            continuation.finish()
        }
        let echoed = try await session.upload(.jsonLines(one), to: "discard")
        #expect(echoed.value?["contentType"] == "application/x-ndjson")
        let other = AsyncStream<Entry> { $0.finish() }
        let typed = try await session.upload(
            .jsonLines(other, contentType: MediaType(type: "application", subtype: "jsonl")), to: "discard")
        #expect(typed.value?["contentType"] == "application/jsonl")
        #expect(typed.value?["bytes"] == 0)
    }

    @Test func anUnencodableRecordFailsTheRequestWithItsKeyPath() async throws {
        let records = AsyncStream<Unencodable> { continuation in
            continuation.yield(Unencodable(value: 1))
            continuation.yield(Unencodable(value: .nan))
            continuation.finish()
        }
        do {
            _ = try await session.upload(.jsonLines(records), to: "discard")
            Issue.record("a NaN was sent")
        } catch {
            #expect(error.code == .unencodableValue)
            #expect(error.keyPath?.contains("value") == true, "\(error)")
        }
    }
}
