// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes a `Decodable` model from an XML document, straight from libxml2's tree (no ``Value``
/// in between), with the mapping people know from XMLCoder.
///
/// ```swift
/// // <book id="7"><title>Dune</title><author>Herbert</author><tag>sf</tag><tag>classic</tag></book>
/// struct Book: Decodable { var id: Int; var title: String; var author: String; var tag: [String] }
/// let book = try XMLModelDecoder().decode(Book.self, from: bytes)
/// ```
///
/// - The root element is the model; its name is not checked.
/// - A key names an attribute or the child elements of that name (attributes first); a
///   repeated element is an array (`tag: [String]`), and a missing one an empty array; the key
///   `""` is the element's own text (XMLCoder's convention for an element with attributes and
///   text: `case value = ""`).
/// - Scalars are read from text with the rules of every text-only format (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md): integers
///   from decimal digits, booleans from `true`/`false`/`1`/`0`/…, dates and data by
///   ``dateDecoding`` and ``dataDecoding``; text is trimmed of surrounding white space unless
///   ``trimsWhitespace`` is `false`.
/// - An empty element (`<note/>`) is `""` for a `String` and `nil` for an optional.
/// - Namespaces: names match by their local part (``keepsNamespacePrefixes`` `false`, the
///   default), or as written, `prefix:name`.
///
/// Errors name the key path (`$.book.tag[1]`); malformed XML keeps the parser's line and column.
public struct XMLModelDecoder: Sendable {
    /// How `Date` is read; ISO 8601 (XML Schema's `dateTime`) by default.
    public var dateDecoding: TextDateDecoding = .iso8601
    /// How `Data` is read; base64 (XML Schema's `base64Binary`) by default.
    public var dataDecoding: TextDataDecoding = .base64
    /// How element and attribute names become coding keys.
    public var keyDecoding: KeyDecoding = .useDefaultKeys
    /// Whether names keep their namespace prefix (`atom:link`) or match by local name (`link`).
    public var keepsNamespacePrefixes = false
    /// Whether text is trimmed of the white space around it (indentation).
    public var trimsWhitespace = true
    /// The parser's bounds (body size, depth, entity expansions, string length).
    public var limits: Limits = .default
    /// Values made available to `Decodable` implementations through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder.
    public init() {}

    /// Parses `bytes` (safely: no network, no external entities, entity expansion bounded) and
    /// decodes a `T` from its root element.
    ///
    /// - Throws: ``SatchelError``: the parser's errors (with line and column), then
    ///   `typeMismatch`, `valueNotFound` or `numberOutOfRange` with the key path.
    public func decode<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], encoding: String? = nil
    ) throws(SatchelError) -> T {
        try decode(type, from: try XMLDocumentPayload(parsing: bytes, encoding: encoding, limits: limits))
    }

    /// Decodes a `T` from the root element of a parsed document.
    /// - Throws: As ``decode(_:from:encoding:)``.
    public func decode<T: Decodable>(_ type: T.Type, from document: XMLDocumentPayload) throws(SatchelError) -> T {
        return try withExtendedLifetime(document) { () throws(SatchelError) -> T in
            guard let root = xmlDocGetRootElement(document.document) else {
                throw SatchelError(.valueNotFound, "the document has no root element")
            }
            return try decode(type, element: root, context: XMLModelContext(decoder: self))
        }
    }

    /// Decodes a `T` from `element` with a context made once for many elements (the records of
    /// an ``XMLElementReader``).
    func decode<T: Decodable>(
        _ type: T.Type, element: xmlNodePtr, context: XMLModelContext
    ) throws(SatchelError) -> T {
        let node = XMLModelNode(items: [.element(element)], parent: nil, key: nil, context: context)
        return try SatchelError.decoding(type) { try node.decodeValue(type) }
    }
}

/// What every node of one decode shares.
final class XMLModelContext {
    let keyDecoding: KeyDecoding
    let keepsPrefixes: Bool
    let trims: Bool
    let date: @Sendable (String) throws -> Date
    let bytes: @Sendable (String) throws -> [UInt8]
    let userInfo: [CodingUserInfoKey: any Sendable]

    init(decoder: XMLModelDecoder) {
        keyDecoding = decoder.keyDecoding
        keepsPrefixes = decoder.keepsNamespacePrefixes
        trims = decoder.trimsWhitespace
        date = decoder.dateDecoding.reader
        bytes = decoder.dataDecoding.reader
        userInfo = decoder.userInfo
    }

    /// The coding key an element or attribute name stands for.
    func key(prefix: UnsafePointer<xmlChar>?, local: UnsafePointer<xmlChar>?) -> String {
        let name =
            keepsPrefixes
            ? XMLDocumentPayload.qualifiedName(prefix: prefix, local: local) : (XMLLibrary.string(local) ?? "")
        if case .useDefaultKeys = keyDecoding { return name }
        return keyDecoding.key(name)
    }
}
