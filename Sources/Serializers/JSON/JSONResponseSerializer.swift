// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes JSON responses (AFNetworking's `AFJSONResponseSerializer`).
///
/// Accepts `application/json`, `text/json`, `text/javascript` and any `application/*+json`.
/// A blank body (empty, or only white space such as the one space some servers send) decodes
/// to no value without error (``BlankBody``).
public struct JSONResponseSerializer: TypedResponseSerializer {
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
    public init(
        options: JSONReadingOptions = JSONReadingOptions(), acceptableContentTypes: MediaRangeList = defaultContentTypes
    ) {
        self.options = options
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a whole body; `nil` for a blank body (``BlankBody``).
    ///
    /// JSON is UTF-8 (RFC 8259 §8.1), and a `charset` parameter has no effect (§11) — so a UTF-8
    /// body labelled `charset=iso-8859-1` still reads right. Only UTF-16 and UTF-32, which no
    /// UTF-8 text can be mistaken for (RFC 4627's other encodings), are transcoded first, when
    /// the Content-Type names them or the body starts with their byte order mark; error offsets
    /// then count in the UTF-8 text.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if BlankBody.isBlank(body, ignoringWhiteSpace: true) { return nil }
        return try JSONReader(options: options, limits: limits).read(try Self.utf8(body, contentType: contentType))
    }

    /// Decodes a body lent as raw memory as ``decode(_:contentType:limits:)`` does, reading it in
    /// place unless it must be transcoded from UTF-16 or UTF-32 first.
    public func decode(
        buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> Value? {
        if BlankBody.isBlank(buffer: buffer, ignoringWhiteSpace: true) { return nil }
        if Self.wideType(contentType: contentType, prefix: Array(buffer.prefix(4))) != nil {
            return try decode(Array(buffer), contentType: contentType, limits: limits)
        }
        return try JSONReader(options: options, limits: limits).read(buffer)
    }

    /// The media type to transcode a body of `contentType` that starts with `prefix` as, when it
    /// is UTF-16 or UTF-32 by its Content-Type or its byte order mark; `nil` for UTF-8.
    static func wideType(contentType: MediaType?, prefix: [UInt8]) -> MediaType? {
        func isWide(_ charset: Charset?) -> Bool {
            switch charset {
            case .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian: true
            default: false
            }
        }
        let label = contentType?.charset
        // UTF-16 and UTF-32 marks start with 0x00, 0xFE or 0xFF: without a label, other text is UTF-8.
        if label == nil, let first = prefix.first, first != 0x00, first != 0xFE, first != 0xFF { return nil }
        let declared = label.flatMap(Charset.init(name:))
        let mark = Charset.byteOrderMark(of: prefix)
        guard isWide(declared) || isWide(mark) else { return nil }
        var type = contentType ?? MediaType(type: "application", subtype: "json")
        // A label that is not UTF-16 or UTF-32 (absent, unknown, or contradicted) yields to the mark.
        if !isWide(declared), let mark {
            type = type.setting(parameter: "charset", to: mark.rawValue)
        }
        return type
    }

    /// `body` as UTF-8, transcoded from UTF-16 or UTF-32 when its Content-Type or byte order
    /// mark says it is in one of them.
    static func utf8(_ body: [UInt8], contentType: MediaType?) throws(SatchelError) -> [UInt8] {
        guard let type = wideType(contentType: contentType, prefix: Array(body.prefix(4))) else { return body }
        return Array(try TextDecoding().decode(body, mediaType: type).utf8)
    }

    /// Decodes a body straight into `T`.
    /// - Throws: ``SatchelError/Code/truncatedInput`` for an empty body (JSON text that ends
    ///   before its value; the response path reads a blank body as no value instead), else the
    ///   errors of ``JSONReader/read(_:from:)``.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], limits: Limits = .default
    ) throws(SatchelError) -> T {
        try JSONReader(options: options, limits: limits).read(type, from: body)
    }

    /// Decodes a body straight into `T` (``TypedResponseSerializer``), transcoding UTF-16 and
    /// UTF-32 first as ``decode(_:contentType:limits:)`` does; `nil` for a blank body.
    /// - Throws: The errors of ``JSONReader/read(_:from:)``.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> T? {
        if BlankBody.isBlank(body, ignoringWhiteSpace: true) { return nil }
        return try JSONReader(options: options, limits: limits).read(
            type, from: Self.utf8(body, contentType: contentType))
    }

    /// A reader fed the body as it arrives (a UTF-16 or UTF-32 body is collected and decoded
    /// whole, as ``decode(_:contentType:limits:)`` would).
    public func makeIncrementalReader(contentType: MediaType?, limits: Limits) -> (any IncrementalReader)? {
        let reader = JSONIncrementalReader(options: options, limits: limits)
        reader.blankBody = BlankBody(ignoringWhiteSpace: true)
        return JSONBodyReader(serializer: self, contentType: contentType, limits: limits, reader: reader)
    }
}

extension JSONResponseSerializer {
    /// `application/json` for a body whose first significant byte (after a byte order mark and
    /// white space) is `{` or `[`; a bare number or string is not recognised.
    public func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
        switch ContentSniffer.firstSignificantByte(of: prefix) {
        case UInt8(ascii: "{"), UInt8(ascii: "["): MediaType(type: "application", subtype: "json")
        default: nil
        }
    }
}

extension JSONResponseSerializer: ElementReadingSerializer {
    /// A reader of the elements of the array at the JSON Pointer `path` (``JSONElementReader``),
    /// read with ``options``.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a path that is not a JSON Pointer;
    ///   ``SatchelError/Code/unsupportedFormat`` for a body labelled UTF-16 or UTF-32 (elements
    ///   are read from UTF-8 as they arrive).
    public func makeElementReader(
        path: String, namespaces: [String: String], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> any ElementRecordReader {
        if let charset = contentType?.charset?.lowercased(), charset.hasPrefix("utf-16") || charset.hasPrefix("utf-32")
        {
            throw SatchelError(.unsupportedFormat, "JSON elements are read from UTF-8 as they arrive, not \(charset)")
        }
        return JSONElementReader(pointer: try JSONPointer(path), options: options, limits: limits)
    }
}
