// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes `text/*` bodies into strings, in the charset ``TextDecoding`` resolves (the
/// Content-Type's `charset`, then a byte order mark, then the media type's default, then the
/// fallback).
///
/// An empty body is no value, as for every serializer. More specific registrations win over
/// `text/*` in the registry, so `text/xml` and `text/json` still reach the XML and JSON
/// serializers.
public struct TextResponseSerializer: ResponseSerializer {
    /// `"text"`.
    public var name: String { "text" }
    /// The acceptable media types; `text/*` by default.
    public var acceptableContentTypes: MediaRangeList
    /// How the charset is found.
    public var decoding: TextDecoding

    /// `text/*`.
    public static let defaultContentTypes = MediaRangeList(accepting: [MediaType(type: "text", subtype: "*")])

    /// Creates a serializer.
    ///
    /// - Parameters:
    ///   - decoding: How the charset is found; UTF-8 when nothing says otherwise.
    ///   - acceptableContentTypes: The media types accepted.
    public init(decoding: TextDecoding = TextDecoding(), acceptableContentTypes: MediaRangeList = defaultContentTypes) {
        self.decoding = decoding
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes the body into a string.
    ///
    /// - Returns: ``Value/string(_:)``, or `nil` for an empty body.
    /// - Throws: ``SatchelError``: `unsupportedFormat` for a charset Satchel does not decode,
    ///   `invalidEncoding` with the byte offset for bytes invalid in the charset,
    ///   `limitExceeded` past ``Limits/maxBodyBytes`` or ``Limits/maxStringBytes``.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if body.isEmpty { return nil }
        try limits.checkBody(count: body.count)
        let text = try decoding.decode(body, mediaType: contentType)
        let length = text.utf8.count
        if length > limits.maxStringBytes {
            throw SatchelError.limitExceeded(
                "maxStringBytes", limits.maxStringBytes, "a text body of \(length) UTF-8 bytes")
        }
        return .string(text)
    }
}
