// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes XML responses into an ``XMLDocumentPayload``: libxml2's tree, queried with XPath and
/// converted to canonical JSON `{"$xml": …}` (AFNetworking's `AFXMLDocumentResponseSerializer`).
///
/// Accepts `application/xml`, `text/xml` and every `+xml` type. A charset parameter overrides
/// the document's encoding declaration (RFC 7303). An empty body, or one of only whitespace,
/// is no value, as an empty JSON body is. Parsing is safe by default: see ``XMLEventReader``.
public struct XMLDocumentResponseSerializer: TypedResponseSerializer {
    /// `"xml"`.
    public var name: String { "xml" }
    /// The acceptable media types.
    public var acceptableContentTypes: MediaRangeList

    /// `application/xml`, `text/xml`, and `application/*+xml`, `text/*+xml`, `image/*+xml`.
    public static let defaultContentTypes = MediaRangeList(accepting: [
        MediaType(type: "application", subtype: "xml"),
        MediaType(type: "text", subtype: "xml"),
        MediaType(type: "application", subtype: "*+xml"),
        MediaType(type: "text", subtype: "*+xml"),
        MediaType(type: "image", subtype: "*+xml"),
    ])

    /// Creates a serializer.
    public init(acceptableContentTypes: MediaRangeList = defaultContentTypes) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a whole body.
    /// - Returns: ``Value/payload(_:)`` with an ``XMLDocumentPayload``; `nil` for a blank body.
    /// - Throws: the errors of ``XMLDocumentPayload/init(parsing:encoding:limits:)-([UInt8],_,_)``.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if BlankBody.isBlank(body, ignoringWhiteSpace: true) { return nil }
        return .payload(try XMLDocumentPayload(parsing: body, encoding: contentType?.charset, limits: limits))
    }

    /// Decodes a body lent as raw memory (a C caller's buffer) in place; `nil` for a blank body.
    /// - Throws: the errors of ``XMLDocumentPayload/init(parsing:encoding:limits:)-(UnsafeRawBufferPointer,_,_)``.
    public func decode(
        buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> Value? {
        if BlankBody.isBlank(buffer: buffer, ignoringWhiteSpace: true) { return nil }
        return .payload(try XMLDocumentPayload(parsing: buffer, encoding: contentType?.charset, limits: limits))
    }

    /// Decodes a body straight into `T` with ``XMLModelDecoder`` (XMLCoder's mapping); `nil` for
    /// a blank body.
    /// - Throws: As ``XMLModelDecoder/decode(_:from:encoding:)``.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> T? {
        if BlankBody.isBlank(body, ignoringWhiteSpace: true) { return nil }
        return try Self.modelDecoder(limits).decode(type, from: body, encoding: contentType?.charset)
    }

    /// Decodes the document a value holds (a body parsed as it arrived) into `T` with
    /// ``XMLModelDecoder``, as from the bytes.
    /// - Throws: `typeMismatch` for a value that holds no document, else as
    ///   ``XMLModelDecoder/decode(_:from:)-(_,XMLDocumentPayload)``.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value, limits: Limits) throws(SatchelError) -> T {
        guard let document = value.xmlDocument else {
            throw SatchelError(
                .typeMismatch, "expected an XML document to decode \(T.self) from, found \(value.kindName)")
        }
        return try Self.modelDecoder(limits).decode(type, from: document)
    }

    /// XMLCoder's mapping under `limits`, for the bytes and for a parsed document alike.
    private static func modelDecoder(_ limits: Limits) -> XMLModelDecoder {
        var decoder = XMLModelDecoder()
        decoder.limits = limits
        return decoder
    }

    /// A decoder that feeds libxml2's push parser as the body arrives.
    public func makeIncrementalReader(contentType: MediaType?, limits: Limits) -> (any IncrementalReader)? {
        XMLIncrementalReader(documentWith: limits, encoding: contentType?.charset)
    }
}

extension XMLDocumentResponseSerializer {
    /// `application/xml` for a body whose first significant byte (after a byte order mark and
    /// white space) is `<`. The property-list serializer, registered after this one, is asked
    /// first and claims XML property lists.
    public func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
        ContentSniffer.firstSignificantByte(of: prefix) == UInt8(ascii: "<")
            ? MediaType(type: "application", subtype: "xml") : nil
    }
}

extension XMLDocumentResponseSerializer: ElementReadingSerializer {
    /// A reader of the elements `path` matches (``XMLElementReader``), decoding typed records
    /// with this serializer's model mapping.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a path it cannot read or a prefix
    ///   `namespaces` lacks.
    public func makeElementReader(
        path: String, namespaces: [String: String], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> any ElementRecordReader {
        try XMLElementReader(
            path: path, namespaces: namespaces, limits: limits, encoding: contentType?.charset,
            modelDecoder: Self.modelDecoder(limits))
    }
}
