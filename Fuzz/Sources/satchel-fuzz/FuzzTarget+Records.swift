// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FuzzTarget {
    /// `ServerSentEventParser` through the event-stream serializer's record reader, whole and in
    /// chunks; the reconnection time and last ID agree too.
    static let eventStream = recordStream(
        name: "event-stream", summary: "Server-Sent Events whole and chunked (records, errors, last ID, retry)"
    ) {
        EventStreamResponseSerializer().makeRecordReader(contentType: nil, limits: FuzzLimits.records)
    } extra: { input in
        var whole = ServerSentEventParser(limits: FuzzLimits.records)
        var chunked = ServerSentEventParser(limits: FuzzLimits.records)
        _ = FuzzCheck.outcome("ServerSentEventParser.feed") { try whole.feed(input.bytes) { _ in } }
        _ = FuzzCheck.outcome("ServerSentEventParser.feed (chunks)") {
            for chunk in input.chunks(of: input.bytes) { try chunked.feed(Array(chunk)) { _ in } }
        }
        if whole.lastEventID != chunked.lastEventID || whole.reconnectionTime != chunked.reconnectionTime {
            FuzzCheck.fail("event-stream: chunked feeding changes the last ID or the reconnection time")
        }
    }

    /// `JSONLinesReader` whole and in chunks.
    static let jsonLines = recordStream(name: "json-lines", summary: "JSONLinesReader whole and chunked") {
        JSONLinesReader(limits: FuzzLimits.records)
    }

    /// `JSONTextSequenceReader` whole and in chunks.
    static let jsonSequence = recordStream(name: "json-seq", summary: "JSONTextSequenceReader whole and chunked") {
        JSONTextSequenceReader(limits: FuzzLimits.records)
    }

    /// A target feeding a record reader the whole input and the same input in chunks: the
    /// records delivered (before any error) and the error's code must agree.
    private static func recordStream(
        name: String, summary: String, make: @escaping @Sendable () -> any RecordReader,
        extra: @escaping @Sendable (FuzzInput) -> Void = { _ in }
    ) -> FuzzTarget {
        FuzzTarget(name: name, summary: summary) { input in
            let whole = records(make(), [input.bytes[...]])
            let chunked = records(make(), input.chunks(of: input.bytes))
            guard whole.records.count == chunked.records.count,
                zip(whole.records, chunked.records).allSatisfy({ FuzzCheck.same($0, $1) }),
                whole.error?.code == chunked.error?.code
            else {
                FuzzCheck.fail(
                    "\(name): chunked feeding gives \(chunked.records.count) records and \(String(describing: chunked.error?.code)), whole \(whole.records.count) and \(String(describing: whole.error?.code))"
                )
            }
            extra(input)
        }
    }

    private static func records(
        _ reader: any RecordReader, _ chunks: [ArraySlice<UInt8>]
    ) -> (records: [Value], error: SatchelError?) {
        var records: [Value] = []
        let outcome = FuzzCheck.outcome("RecordReader") {
            for chunk in chunks { try reader.feed(Array(chunk)) { records.append($0) } }
            try reader.finish { records.append($0) }
        }
        if case .failure(let error) = outcome { return (records, error) }
        return (records, nil)
    }
}
