// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One contender of the record-stream benchmarks, named so that `satchel-bench --contender NAME
/// --input small.json` can run it alone (``IsolatedContender``); `scripts/callgrind streams`
/// counts each one's instructions so. The bodies are smaller than the group's (10 MB of JSON
/// Lines made from the record in the input, 50 000 events) to keep valgrind's runs short.
enum RecordStreamContender: String, CaseIterable, Sendable {
    /// `JSONLinesReader().feed(chunk, as: APIRecord.self)` per 256 KiB chunk.
    case satchelLineModels = "streams-satchel-line-models"
    /// `JSONDecoder().decode(APIRecord.self, from:)` per line.
    case foundationLineModels = "streams-foundation-line-models"
    /// `ServerSentEventParser` with each event's data decoded into `Delta`, as
    /// `events(decoding:)` does.
    case satchelEventModels = "streams-satchel-event-models"
    /// The same events with each event's data decoded by `JSONDecoder` (swift-openapi-runtime's
    /// reader, the group's peer, takes minutes under valgrind).
    case foundationEventModels = "streams-foundation-event-models"

    /// The work to time, with its body made from the record in the file at `path`.
    func work(input path: String) throws -> Sampler.Work {
        let record = try Corpus.File(reading: path).bytes
        switch self {
        case .satchelLineModels:
            let lines = RecordStreamBenchmarks.jsonLines(from: record, bytes: 10_000_000)
            return { try RecordStreamBenchmarks.satchelModels(lines) }
        case .foundationLineModels:
            let lines = RecordStreamBenchmarks.jsonLines(from: record, bytes: 10_000_000)
            return { try RecordStreamBenchmarks.foundationModels(lines) }
        case .satchelEventModels:
            let events = RecordStreamBenchmarks.eventStream(count: 50_000)
            return { try RecordStreamBenchmarks.satchelDecodedEvents(events) }
        case .foundationEventModels:
            let events = RecordStreamBenchmarks.eventStream(count: 50_000)
            return { try RecordStreamBenchmarks.foundationDecodedEvents(events) }
        }
    }
}
