// SPDX-License-Identifier: Apache-2.0
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

    /// Decodes a form body: percent-encoded bytes in the Content-Type's `charset`, UTF-8 without
    /// one (the media type's default).
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - contentType: The response's Content-Type, for its `charset`.
    ///   - limits: The bounds to obey.
    /// - Returns: An ``Value/object(_:)``, or `nil` for an empty body.
    /// - Throws: As ``FormReader/read(_:)-([UInt8])``, and ``SatchelError/Code/unsupportedFormat``
    ///   for a charset Satchel does not know.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if body.isEmpty { return nil }
        return try FormReader(options: try Self.options(options, for: contentType), limits: limits).read(body)
    }

    /// `options` with the charset `contentType` declares.
    static func options(
        _ options: FormReader.Options, for contentType: MediaType?
    ) throws(SatchelError) -> FormReader.Options {
        guard let name = contentType?.charset else { return options }
        guard let charset = Charset(name: name) else {
            throw SatchelError(.unsupportedFormat, "the form's charset \"\(name)\" is not one Satchel reads")
        }
        var options = options
        options.charset = charset
        return options
    }

    /// Decodes a form body straight into `T` with ``URLEncodedFormDecoder`` (numbers and
    /// booleans read from their text, arrays in every style); `nil` for an empty body.
    /// - Throws: As ``URLEncodedFormDecoder/decode(_:from:)-(_,[UInt8])``.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> T? {
        if body.isEmpty { return nil }
        var decoder = URLEncodedFormDecoder()
        decoder.limits = limits
        decoder.charset = try Self.options(options, for: contentType).charset
        return try decoder.decode(type, from: body)
    }
}
