import SerializerRegistry

/// Decodes `application/x-www-form-urlencoded` response bodies (OAuth 1 token responses, some
/// payment gateways) into an object with ``FormReader``.
public struct FormResponseSerializer: TypedResponseSerializer {
    /// `"form"`.
    public var name: String { "form" }

    /// The media types accepted; `application/x-www-form-urlencoded` by default.
    public var acceptableContentTypes: MediaRangeList

    /// How keys are read.
    public var options: FormReader.Options

    /// Creates a form response serializer.
    ///
    /// - Parameters:
    ///   - options: How keys are read; nested keys, last duplicate wins, indexed keys as arrays.
    ///   - acceptableContentTypes: The media types accepted.
    public init(
        options: FormReader.Options = FormReader.Options(),
        acceptableContentTypes: MediaRangeList = MediaRangeList(accepting: [.formURLEncoded])
    ) {
        self.options = options
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a form body. Form bodies are percent-encoded UTF-8, whatever the charset says.
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - contentType: The response's Content-Type (not consulted).
    ///   - limits: The bounds to obey.
    /// - Returns: An ``Value/object(_:)``, or `nil` for an empty body.
    /// - Throws: As ``FormReader/decode(_:)-([UInt8])``.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if body.isEmpty { return nil }
        return try FormReader(options: options, limits: limits).read(body)
    }

    /// Decodes a form body straight into `T` with ``URLEncodedFormDecoder`` (numbers and
    /// booleans read from their text, arrays in every style); `nil` for an empty body.
    /// - Throws: As ``URLEncodedFormDecoder/decode(_:from:)-(_,[UInt8])``.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
    ) throws -> T? {
        if body.isEmpty { return nil }
        var decoder = URLEncodedFormDecoder()
        decoder.limits = limits
        return try decoder.decode(type, from: body)
    }
}
