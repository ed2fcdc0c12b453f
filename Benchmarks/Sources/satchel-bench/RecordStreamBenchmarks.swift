// SPDX-License-Identifier: Apache-2.0
import Foundation
import OpenAPIRuntime
import Satchel

/// Record streams: a 100 MB JSON Lines body into `Value`s and into `Decodable` models, and an
/// event stream of LLM-style deltas, each fed in 256 KiB chunks as a transport would, against
/// what a Swift user would pick instead: Foundation line by line (`JSONSerialization`,
/// `JSONDecoder` per line) and swift-openapi-runtime's readers (what generated OpenAPI clients
/// use: `asDecodedJSONLines(of:)`, `asDecodedServerSentEvents()`).
///
/// The bodies are made in memory from `transport/small.json` (one record per line, each with
/// its own `id`) and a fixed event, so the group needs no corpus of its own.
struct RecordStreamBenchmarks {
    let corpus: Corpus
    let sampler: Sampler

    static let chunkSize = 256 * 1024

    func run() throws -> [ComparisonTable] {
        let record = try corpus.file("transport/small.json").bytes
        let lines = Self.jsonLines(from: record, bytes: 100_000_000)
        let events = Self.eventStream(count: 400_000)
        let recordCount = lines.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        try checkJSONLines(lines, count: recordCount)
        try checkEvents(events)

        Progress.note("record streams: JSON Lines to Value")
        let toValue = try sampler.measure([
            { try Self.satchelValues(lines) },
            { try Self.foundationValues(lines) },
        ])
        Progress.note("record streams: JSON Lines to models")
        let toModels = try sampler.measure([
            { try Self.satchelModels(lines) },
            { try Self.foundationModels(lines) },
            { try Self.openAPIModels(lines) },
        ])
        Progress.note("record streams: Server-Sent Events")
        let sse = try sampler.measure([
            { try Self.satchelEvents(events) },
            { try Self.openAPIEvents(events) },
        ])
        Progress.note("record streams: Server-Sent Events to models")
        let sseModels = try sampler.measure([
            { try Self.satchelDecodedEvents(events) },
            { try Self.openAPIDecodedEvents(events) },
        ])
        let size = "the body"
        var values = ComparisonTable(
            title: "JSON Lines into values: Satchel vs Foundation, line by line",
            satchelCall: "JSONLinesReader().feed(chunk) { value in … } per 256 KiB chunk",
            peerName: "JSONSerialization",
            peerCall: "lines split at LF, JSONSerialization.jsonObject(with:) per line", sizeNote: size)
        values.rows.append(
            Comparison(input: "records.jsonl", bytes: lines.count, satchel: toValue[0], peer: toValue[1]))
        var models = ComparisonTable(
            title: "JSON Lines into models: Satchel vs JSONDecoder, line by line",
            satchelCall: "JSONLinesReader().feed(chunk, as: APIRecord.self) { … } per 256 KiB chunk",
            peerName: "JSONDecoder",
            peerCall: "lines split at LF, JSONDecoder().decode(APIRecord.self, from:) per line",
            sizeNote: size)
        models.target = 1.0
        models.rows.append(
            Comparison(input: "records.jsonl", bytes: lines.count, satchel: toModels[0], peer: toModels[1]))
        var modelsOpenAPI = ComparisonTable(
            title: "JSON Lines into models: Satchel vs swift-openapi-runtime",
            satchelCall: "JSONLinesReader().feed(chunk, as: APIRecord.self) { … } per 256 KiB chunk",
            peerName: "OpenAPIRuntime",
            peerCall: "chunks as an AsyncSequence of ArraySlice<UInt8>, .asDecodedJSONLines(of: APIRecord.self)",
            sizeNote: size)
        modelsOpenAPI.rows.append(
            Comparison(input: "records.jsonl", bytes: lines.count, satchel: toModels[0], peer: toModels[2]))
        var eventTable = ComparisonTable(
            title: "Server-Sent Events: Satchel vs swift-openapi-runtime",
            satchelCall: "ServerSentEventParser().feed(chunk) { event in … } per 256 KiB chunk",
            peerName: "OpenAPIRuntime",
            peerCall: "chunks as an AsyncSequence of ArraySlice<UInt8>, .asDecodedServerSentEvents()", sizeNote: size)
        eventTable.target = 1.0
        eventTable.rows.append(Comparison(input: "deltas.sse", bytes: events.count, satchel: sse[0], peer: sse[1]))
        var decodedTable = ComparisonTable(
            title: "Server-Sent Events with JSON data into models: Satchel vs swift-openapi-runtime",
            satchelCall:
                "ServerSentEventParser().feed(chunk) { try $0.decoded(as: Delta.self, with: decoder) }, as events(decoding:) does",
            peerName: "OpenAPIRuntime",
            peerCall:
                "chunks as an AsyncSequence of ArraySlice<UInt8>, .asDecodedServerSentEventsWithJSONData(of: Delta.self)",
            sizeNote: size)
        decodedTable.target = 1.0
        decodedTable.rows.append(
            Comparison(input: "deltas.sse", bytes: events.count, satchel: sseModels[0], peer: sseModels[1]))
        return [values, models, modelsOpenAPI, eventTable, decodedTable]
    }

    // MARK: Inputs

    /// `record` once per line, with `"id":N` rewritten per line, up to about `bytes`.
    static func jsonLines(from record: [UInt8], bytes: Int) -> [UInt8] {
        let text = String(decoding: record, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let idRange = text.range(of: "\"id\":4711") else { return [] }
        var body: [UInt8] = []
        body.reserveCapacity(bytes + record.count)
        var index = 0
        while body.count < bytes {
            body += Array(text.replacingCharacters(in: idRange, with: "\"id\":\(index)").utf8)
            body.append(0x0A)
            index += 1
        }
        return body
    }

    /// `count` events as an LLM streaming API sends them: a type, an ID, one JSON data line.
    static func eventStream(count: Int) -> [UInt8] {
        var body: [UInt8] = []
        for index in 0..<count {
            body += Array(
                "event: delta\nid: \(index)\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word\(index % 97)\"}}]}\n\n"
                    .utf8)
        }
        return body
    }

    static func chunks(_ body: [UInt8]) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: body.count, by: chunkSize).map { body[$0..<min($0 + chunkSize, body.count)] }
    }

    // MARK: Contenders

    static func satchelValues(_ body: [UInt8]) throws -> Int {
        let reader = JSONLinesReader(limits: Limits(maxBodyBytes: .max))
        var count = 0
        for chunk in chunks(body) {
            try chunk.withUnsafeBytes { try reader.feed($0) { _ in count += 1 } }
        }
        try reader.finish { _ in count += 1 }
        return count
    }

    static func foundationValues(_ body: [UInt8]) throws -> Int {
        var count = 0
        try forEachLine(body) { line in
            _ = try JSONSerialization.jsonObject(with: Data(line))
            count += 1
        }
        return count
    }

    static func satchelModels(_ body: [UInt8]) throws -> [APIRecord] {
        let reader = JSONLinesReader(limits: Limits(maxBodyBytes: .max))
        var records: [APIRecord] = []
        for chunk in chunks(body) {
            try chunk.withUnsafeBytes { try reader.feed($0, as: APIRecord.self) { records.append($0) } }
        }
        try reader.finish(as: APIRecord.self) { records.append($0) }
        return records
    }

    static func foundationModels(_ body: [UInt8]) throws -> [APIRecord] {
        let decoder = JSONDecoder()
        var records: [APIRecord] = []
        try forEachLine(body) { line in records.append(try decoder.decode(APIRecord.self, from: Data(line))) }
        return records
    }

    static func openAPIModels(_ body: [UInt8]) throws -> [APIRecord] {
        let chunks = chunks(body)
        return try waitFor {
            var records: [APIRecord] = []
            for try await record in ChunkSequence(chunks: chunks).asDecodedJSONLines(of: APIRecord.self) {
                records.append(record)
            }
            return records
        }
    }

    static func satchelEvents(_ body: [UInt8]) throws -> Int {
        var parser = ServerSentEventParser(limits: Limits(maxBodyBytes: .max))
        var count = 0
        for chunk in chunks(body) {
            try chunk.withUnsafeBytes { try parser.feed($0) { _ in count += 1 } }
        }
        return count
    }

    /// An LLM streaming API's delta event data.
    struct Delta: Decodable, Hashable, Sendable {
        struct Choice: Decodable, Hashable, Sendable {
            struct Content: Decodable, Hashable, Sendable {
                var content: String
            }

            var index: Int
            var delta: Content
        }

        var choices: [Choice]
    }

    static func satchelDecodedEvents(_ body: [UInt8]) throws -> [Delta] {
        let decoder = JSONModelDecoder()
        return try decodedEvents(body) { (event) throws(SatchelError) in
            try event.decoded(as: Delta.self, with: decoder).data
        }
    }

    /// Satchel's event parser with each event's data decoded by `JSONDecoder` (for
    /// `scripts/callgrind streams`).
    static func foundationDecodedEvents(_ body: [UInt8]) throws -> [Delta] {
        let decoder = JSONDecoder()
        return try decodedEvents(body) { (event) throws(SatchelError) in
            do {
                return try decoder.decode(Delta.self, from: Data(event.data.utf8))
            } catch {
                throw SatchelError(.typeMismatch, "\(error)")
            }
        }
    }

    /// The events of `body`, fed in chunks to Satchel's event parser, each event's data decoded by `decode`.
    private static func decodedEvents(
        _ body: [UInt8], _ decode: (Satchel.ServerSentEvent) throws(SatchelError) -> Delta
    ) throws -> [Delta] {
        var parser = ServerSentEventParser(limits: Limits(maxBodyBytes: .max))
        var deltas: [Delta] = []
        for chunk in chunks(body) {
            try chunk.withUnsafeBytes {
                try parser.feed($0) { (event) throws(SatchelError) in deltas.append(try decode(event)) }
            }
        }
        return deltas
    }

    static func openAPIDecodedEvents(_ body: [UInt8]) throws -> [Delta] {
        let chunks = chunks(body)
        return try waitFor {
            var deltas: [Delta] = []
            for try await event in ChunkSequence(chunks: chunks).asDecodedServerSentEventsWithJSONData(of: Delta.self) {
                if let data = event.data { deltas.append(data) }
            }
            return deltas
        }
    }

    static func openAPIEvents(_ body: [UInt8]) throws -> Int {
        let chunks = chunks(body)
        return try waitFor {
            var count = 0
            for try await _ in ChunkSequence(chunks: chunks).asDecodedServerSentEvents() { count += 1 }
            return count
        }
    }

    /// Calls `body` with each LF-terminated line of `bytes` (without the LF).
    static func forEachLine(_ bytes: [UInt8], _ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
        var start = 0
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            try body(bytes[start..<end])
            start = end + 1
        }
        if start < bytes.count { try body(bytes[start...]) }
    }

    // MARK: Guards

    private func checkJSONLines(_ body: [UInt8], count: Int) throws {
        let ours = try Self.satchelModels(body)
        let foundation = try Self.foundationModels(body)
        let openAPI = try Self.openAPIModels(body)
        guard ours.count == count, ours == foundation, ours == openAPI, try Self.satchelValues(body) == count,
            try Self.foundationValues(body) == count
        else {
            throw BenchmarkFailure.guardFailed("records.jsonl: the readers disagree on the \(count) records")
        }
    }

    private func checkEvents(_ body: [UInt8]) throws {
        var ours: [Satchel.ServerSentEvent] = []
        var parser = ServerSentEventParser()
        try parser.feed(body) { ours.append($0) }
        let chunks = Self.chunks(body)
        let theirs = try waitFor {
            var events: [OpenAPIRuntime.ServerSentEvent] = []
            for try await event in ChunkSequence(chunks: chunks).asDecodedServerSentEvents() { events.append(event) }
            return events
        }
        guard ours.count == theirs.count,
            zip(ours, theirs).allSatisfy({ $0.type == $1.event && $0.data == $1.data && $0.lastEventID == $1.id }),
            try Self.satchelDecodedEvents(body) == Self.openAPIDecodedEvents(body)
        else {
            throw BenchmarkFailure.guardFailed("deltas.sse: the parsers disagree on the \(ours.count) events")
        }
    }
}

/// Chunks already in memory as the `AsyncSequence` of byte slices swift-openapi-runtime reads
/// (what `HTTPBody` hands it).
struct ChunkSequence: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let chunks: [ArraySlice<UInt8>]

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks)
    }

    struct Iterator: AsyncIteratorProtocol {
        let chunks: [ArraySlice<UInt8>]
        var index = 0

        mutating func next() async -> ArraySlice<UInt8>? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            return chunks[index]
        }
    }
}
