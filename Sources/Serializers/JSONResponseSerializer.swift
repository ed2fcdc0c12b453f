import SerializerRegistry

/// Decodes JSON responses (AFNetworking's `AFJSONResponseSerializer`).
///
/// Accepts `application/json`, `text/json`, `text/javascript` and any `application/*+json`.
/// An empty body or a body of one space decodes to no value without error.
public struct JSONResponseSerializer: ResponseSerializer {
    /// `"json"`.
    public var name: String { "json" }
    /// The acceptable media types.
    public var acceptableContentTypes: MediaRangeList
    /// How the text is read.
    public var options: JSONReadingOptions

    /// The media types AFNetworking accepts for JSON, plus every `+json` type.
    public static let defaultContentTypes = MediaRangeList(accepting: [
        .json,
        MediaType(type: "text", subtype: "json"),
        MediaType(type: "text", subtype: "javascript"),
        MediaType(type: "application", subtype: "*+json"),
    ])

    /// Creates a serializer.
    public init(options: JSONReadingOptions = JSONReadingOptions(), acceptableContentTypes: MediaRangeList = defaultContentTypes) {
        self.options = options
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a whole body; `nil` for an empty body or a single space.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws -> Value? {
        if body.isEmpty || body == [0x20] { return nil }
        return try JSONReader(options: options, limits: limits).read(body)
    }

    /// Decodes a body straight into `T`.
    /// - Throws: ``SatchelError/Code/valueNotFound`` for an empty body, else the errors of
    ///   ``JSONReader/read(_:from:)``.
    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], limits: Limits = .default) throws -> T {
        try JSONReader(options: options, limits: limits).read(type, from: body)
    }

    /// A reader fed the body as it arrives.
    public func makeIncrementalDecoder(contentType: MediaType?, limits: Limits) -> (any IncrementalDecoder)? {
        let reader = JSONIncrementalReader(options: options, limits: limits)
        reader.treatsEmptyBodyAsNoValue = true
        return reader
    }
}
