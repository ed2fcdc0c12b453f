// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Encodes an `Encodable` model as an XML document: the reverse of ``XMLModelDecoder``, so a model
/// written here reads back the same.
///
/// ```swift
/// var encoder = XMLModelEncoder()
/// encoder.attributeKeys = ["id", "currency"]
/// let xml = try encoder.encode(book, rootElement: "book")
/// // <book id="7"><title>Dune</title><tag>sf</tag><tag>classic</tag><price currency="EUR">9.5</price></book>
/// ```
///
/// Properties become child elements, or attributes when their key is in ``attributeKeys``; an
/// array repeats its element once per item; the key `""` is the element's own text; `nil`
/// optionals are left out; numbers as JSON writes them, booleans `true`/`false`, dates ISO 8601,
/// data base64. Names are checked (an invalid XML name, or a character XML 1.0 forbids, is
/// ``SatchelError/Code/unencodableValue`` with its key path).
public struct XMLModelEncoder: Sendable {
    /// The keys written as attributes wherever they appear.
    public var attributeKeys: Set<String> = []
    /// How coding keys become element and attribute names.
    public var keyEncoding: KeyEncoding = .useDefaultKeys
    /// Values made available to `Encodable` implementations through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder.
    public init() {}

    /// The document for `value`, with `rootElement` as its root element's name.
    /// - Throws: ``SatchelError/Code/unencodableValue`` with the key path of what XML cannot hold
    ///   (an invalid name, an array directly inside an array, a forbidden character), or the
    ///   model's own error as underlying.
    public func encode(_ value: some Encodable, rootElement: String) throws(SatchelError) -> [UInt8] {
        var encoder = ValueEncoder()
        encoder.userInfo = userInfo
        let tree = mapped(try encoder.encode(value))
        var writer = XMLWriter(rootElementName: rootElement)
        // One member would be taken for the root element itself: wrap it under the root name.
        if case .object(let members) = tree, members.count == 1 {
            return try writer.write(.object([rootElement: tree]))
        }
        return try writer.write(tree)
    }

    /// The model's value in XMLWriter's mapping: attribute keys as `@name`, `""` as `#text`.
    private func mapped(_ value: Value) -> Value {
        switch value {
        case .object(let members):
            var result = ValueObject()
            for (key, member) in members {
                let name: String
                if key.isEmpty {
                    name = "#text"
                } else {
                    let encoded = keyEncoding.key(key)
                    name = attributeKeys.contains(key) ? "@" + encoded : encoded
                }
                result[name] = mapped(member)
            }
            return .object(result)
        case .array(let elements): return .array(elements.map(mapped))
        default: return value
        }
    }
}
