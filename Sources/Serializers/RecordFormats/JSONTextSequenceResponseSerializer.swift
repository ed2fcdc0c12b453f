// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads JSON text sequences (`application/json-seq`, RFC 7464): each RS-introduced JSON text
/// is a record; a whole body decodes to the array of them (see ``JSONTextSequenceReader`` for
/// the reading of the RFC's rules).
public struct JSONTextSequenceResponseSerializer: RecordStreamSerializer {
    public var name: String { "json-seq" }
    public var acceptableContentTypes: MediaRangeList
    /// How each text is read.
    public var options: JSONReadingOptions

    /// `application/json-seq`.
    public static let defaultContentTypes = MediaRangeList(accepting: [
        MediaType(type: "application", subtype: "json-seq")
    ])

    /// Creates the serializer.
    public init(
        options: JSONReadingOptions = JSONReadingOptions(), acceptableContentTypes: MediaRangeList = defaultContentTypes
    ) {
        self.options = options
        self.acceptableContentTypes = acceptableContentTypes
    }

    public func makeRecordReader(contentType: MediaType?, limits: Limits) -> any RecordReader {
        JSONTextSequenceReader(options: options, limits: limits)
    }
}
