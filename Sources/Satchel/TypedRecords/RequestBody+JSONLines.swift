// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Transport

extension RequestBody {
    /// A JSON Lines body written record by record as `records` yields them, sent chunked while
    /// the sequence runs (bulk ingestion APIs: Elasticsearch's `_bulk`, log and metric intake):
    /// each record is encoded as one line of compact JSON (Satchel's `JSONModelEncoder`) and
    /// goes out as soon as it is written, the sequence waiting while 1 MiB is on its way.
    ///
    /// ```swift
    /// let events: AsyncStream<LogEntry> = …
    /// let response = try await session.upload(.jsonLines(events), to: "logs/_bulk", method: .post)
    /// ```
    ///
    /// Sent once, as every ``BodyChunks`` body: no retry, no 307/308 redirect with the body.
    ///
    /// - Parameters:
    ///   - records: The records, iterated once when the request is sent.
    ///   - contentType: The Content-Type; `application/x-ndjson` by default, which bulk APIs
    ///     ask for (`application/jsonl` is the JSON Lines name).
    ///   - writingOptions: How each line is written (`prettyPrinted` is ignored: a record is
    ///     one line).
    /// - Returns: The body; an unencodable record ends the transfer with its
    ///   ``SatchelError/Code/unencodableValue`` error and key path, after the records before it.
    public static func jsonLines<Records: AsyncSequence & Sendable>(
        _ records: Records, contentType: MediaType = MediaType(type: "application", subtype: "x-ndjson"),
        writingOptions: JSONWriter.Options = JSONWriter.Options()
    ) -> RequestBody where Records.Element: Encodable {
        var options = writingOptions
        options.prettyPrinted = false
        return .chunks(
            BodyChunks { [options] write in
                let encoder = JSONModelEncoder(writingOptions: options)
                for try await record in records {
                    var line = try encoder.encode(record)
                    line.append(0x0A)
                    try await write(line)
                }
            }, contentType: contentType)
    }
}
