// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes PNG and JPEG responses into a ``DecodedImage`` payload (AFNetworking's
/// `AFImageResponseSerializer`).
///
/// Accepts AFNetworking's image types (`image/tiff`, `image/jpeg`, `image/gif`, `image/png`,
/// `image/ico`, `image/x-icon`, `image/bmp`, `image/x-bmp`, `image/x-xbitmap`,
/// `image/x-win-bitmap`); the body's magic bytes decide the format, never the Content-Type.
/// Formats other than PNG and JPEG fail with ``SatchelError/Code/unsupportedFormat``. An empty
/// body decodes to no value.
public struct ImageResponseSerializer: ResponseSerializer {
    /// `"image"`.
    public var name: String { "image" }
    /// The acceptable media types.
    public var acceptableContentTypes: MediaRangeList
    /// The pixel layout and scaling.
    public var options: ImageReadingOptions

    /// AFNetworking's acceptable image types.
    public static let defaultContentTypes = MediaRangeList(
        accepting: [
            "tiff", "jpeg", "gif", "png", "ico", "x-icon", "bmp", "x-bmp", "x-xbitmap", "x-win-bitmap",
        ].map { MediaType(type: "image", subtype: $0) })

    /// Creates a serializer.
    public init(
        options: ImageReadingOptions = ImageReadingOptions(),
        acceptableContentTypes: MediaRangeList = defaultContentTypes
    ) {
        self.options = options
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a whole body; `nil` for an empty body.
    /// - Throws: the errors of ``ImageReader/read(_:)-([UInt8])``, and
    ///   ``SatchelError/Code/limitExceeded`` for a body over ``Limits/maxBodyBytes``.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if body.isEmpty { return nil }
        try limits.checkBody(count: body.count)
        return .payload(try ImageReader(options: options, limits: limits).read(body))
    }

    /// Decodes a body lent as raw memory (a C caller's buffer) in place; `nil` for an empty body.
    /// - Throws: As ``decode(_:contentType:limits:)``.
    public func decode(
        buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> Value? {
        if buffer.isEmpty { return nil }
        try limits.checkBody(count: buffer.count)
        return .payload(try ImageReader(options: options, limits: limits).read(buffer))
    }
}

extension ImageResponseSerializer {
    /// The image formats recognised by their magic numbers: PNG and JPEG, which this serializer
    /// decodes, and GIF, WebP and TIFF, which it names so that the error says what arrived.
    static let signatures: [(signature: [UInt8?], subtype: String)] =
        [(ImageFormat.pngSignature, "png"), (ImageFormat.jpegSignature, "jpeg")]
        + ImageFormat.otherSignatures.flatMap { entry in entry.signatures.map { ($0, entry.subtype) } }

    /// `image/png`, `image/jpeg`, `image/gif`, `image/webp` or `image/tiff` by the body's magic
    /// number.
    public func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
        Self.signatures.first { ContentSniffer.matches($0.signature, at: prefix) }
            .map { MediaType(type: "image", subtype: $0.subtype) }
    }
}
