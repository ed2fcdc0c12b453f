// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Finds the charset of a text body and decodes it: from the Content-Type's `charset`, then a
/// byte order mark, then the media type's default (UTF-8 for JSON per RFC 8259 and for form
/// bodies, the encoding declaration for XML, else UTF-8 as XML's own default), then
/// ``fallback`` — so a UTF-8 JSON body without `charset` never turns `é` into `Ã©`.
///
/// A byte order mark that matches the chosen charset is removed; `charset=utf-16` (or
/// `utf-32`) takes its byte order from the mark, big-endian without one.
public struct TextDecoding: Sendable, Hashable {
    /// Where the charset came from.
    public enum Source: String, Sendable {
        /// The Content-Type's `charset` parameter.
        case contentType
        /// A byte order mark at the start of the body.
        case byteOrderMark
        /// The default of the media type (JSON, form, XML without a declaration).
        case mediaTypeDefault
        /// The `encoding` of an XML declaration.
        case xmlDeclaration
        /// ``TextDecoding/fallback``.
        case fallback
    }

    /// The charset of a body nothing else decides for (a `text/plain` without `charset` or
    /// BOM). Default UTF-8 (RFC 9110 dropped HTTP/1.1's ISO-8859-1 default).
    public var fallback: Charset

    /// Creates a decoding policy.
    public init(fallback: Charset = .utf8) {
        self.fallback = fallback
    }

    /// The charset of `bytes`, where it came from, and the length of the byte order mark to
    /// skip.
    ///
    /// - Throws: ``SatchelError/Code/unsupportedFormat`` when the Content-Type or the XML
    ///   declaration names a charset Satchel does not decode.
    public func resolve(
        _ bytes: [UInt8], mediaType: MediaType?
    ) throws(SatchelError) -> (charset: Charset, source: Source, markLength: Int) {
        let mark = Charset.byteOrderMark(of: bytes)
        if let name = mediaType?.charset {
            guard var charset = Charset(name: name) else { throw Self.unsupported(name, from: "the Content-Type") }
            // A generic utf-16/utf-32 takes its byte order from the mark.
            if let mark, Self.sameWidth(mark, charset), ["utf-16", "utf-32"].contains(name) { charset = mark }
            return (charset, .contentType, mark == charset ? charset.byteOrderMark?.count ?? 0 : 0)
        }
        if let mark { return (mark, .byteOrderMark, mark.byteOrderMark?.count ?? 0) }
        guard let mediaType else { return (fallback, .fallback, 0) }
        if mediaType.isXML {
            guard let name = Self.xmlDeclarationEncoding(bytes) else { return (.utf8, .mediaTypeDefault, 0) }
            guard let charset = Charset(name: name) else { throw Self.unsupported(name, from: "the XML declaration") }
            return (charset, .xmlDeclaration, 0)
        }
        if mediaType.isJSON || mediaType.essence == "application/x-www-form-urlencoded" {
            return (.utf8, .mediaTypeDefault, 0)
        }
        return (fallback, .fallback, 0)
    }

    /// Decodes `bytes` in the charset ``resolve(_:mediaType:)`` finds.
    ///
    /// - Throws: ``SatchelError/Code/unsupportedFormat`` for an unknown charset,
    ///   ``SatchelError/Code/invalidEncoding`` with the byte offset for bytes invalid in it.
    public func decode(_ bytes: [UInt8], mediaType: MediaType?) throws(SatchelError) -> String {
        let (charset, _, markLength) = try resolve(bytes, mediaType: mediaType)
        do {
            return try charset.decode(bytes[markLength...])
        } catch {
            var error = error
            error.offset = error.offset.map { $0 + markLength }
            throw error
        }
    }

    private static func sameWidth(_ a: Charset, _ b: Charset) -> Bool {
        let utf16: Set<Charset> = [.utf16BigEndian, .utf16LittleEndian]
        let utf32: Set<Charset> = [.utf32BigEndian, .utf32LittleEndian]
        return (utf16.contains(a) && utf16.contains(b)) || (utf32.contains(a) && utf32.contains(b))
    }

    private static func unsupported(_ name: String, from source: String) -> SatchelError {
        let known = Charset.allCases.map(\.rawValue).joined(separator: ", ")
        return SatchelError(
            .unsupportedFormat, "charset \"\(name)\" named by \(source) is not supported (supported: \(known))")
    }

    /// The `encoding` pseudo-attribute of an XML declaration at the very start of `bytes`
    /// (`<?xml version="1.0" encoding="ISO-8859-1"?>`), read as ASCII within its first 200 bytes.
    static func xmlDeclarationEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let head = bytes.prefix(200)
        guard let end = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: head[..<end], as: UTF8.self)
        guard let range = declaration.firstRange(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }
}

extension MediaType {
    /// `application/json`, `text/json`, `text/javascript` or any `+json` type.
    var isJSON: Bool {
        suffix == "json" || ["application/json", "text/json", "text/javascript"].contains(essence)
    }

    /// `application/xml`, `text/xml` or any `+xml` type.
    var isXML: Bool {
        suffix == "xml" || ["application/xml", "text/xml"].contains(essence)
    }
}
