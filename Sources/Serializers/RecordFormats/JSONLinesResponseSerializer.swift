// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads JSON Lines / NDJSON bodies (`application/jsonl`, `application/x-ndjson`, and the
/// older `application/jsonlines` and `application/x-jsonlines`): each line's JSON text is a
/// record; a whole body decodes to the array of them (see ``JSONLinesReader`` for the rules).
///
/// ```swift
/// let ndjson = MediaType(type: "application", subtype: "x-ndjson")
/// let rows = try Registry.standard().decode(Array("{\"a\":1}\n{\"a\":2}\n".utf8), contentType: ndjson)
/// // [{"a": 1}, {"a": 2}]
/// ```
public struct JSONLinesResponseSerializer: RecordStreamSerializer {
    public var name: String { "json-lines" }
    public var acceptableContentTypes: MediaRangeList
    /// How each line's text is read.
    public var options: JSONReadingOptions

    /// The JSON Lines media types, the registered one first.
    public static let defaultContentTypes = MediaRangeList(accepting: [
        MediaType(type: "application", subtype: "jsonl"),
        MediaType(type: "application", subtype: "x-ndjson"),
        MediaType(type: "application", subtype: "jsonlines"),
        MediaType(type: "application", subtype: "x-jsonlines"),
    ])

    /// Creates the serializer.
    public init(
        options: JSONReadingOptions = JSONReadingOptions(), acceptableContentTypes: MediaRangeList = defaultContentTypes
    ) {
        self.options = options
        self.acceptableContentTypes = acceptableContentTypes
    }

    public func makeRecordReader(contentType: MediaType?, limits: Limits) -> any RecordReader {
        JSONLinesReader(options: options, limits: limits)
    }
}
