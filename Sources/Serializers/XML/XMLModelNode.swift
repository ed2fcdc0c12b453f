// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One value being decoded by ``XMLModelDecoder``: the elements a key named (one, several for an
/// array, none when absent), or a text (an attribute's value, an element's own text).
final class XMLModelNode: Decoder, CodingPathNode {
    enum Item {
        case element(xmlNodePtr)
        case text(String)
    }

    let items: [Item]
    let parent: XMLModelNode?
    let key: (any CodingKey)?
    let context: XMLModelContext

    init(items: [Item], parent: XMLModelNode?, key: (any CodingKey)?, context: XMLModelContext) {
        self.items = items
        self.parent = parent
        self.key = key
        self.context = context
    }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func child(_ items: [Item], key: any CodingKey) -> XMLModelNode {
        XMLModelNode(items: items, parent: self, key: key, context: context)
    }

    /// Whether `items` stand for no value: nothing, or one empty element (no attributes, no
    /// children).
    static func isAbsent(_ items: [Item]) -> Bool {
        guard let first = items.first else { return true }
        guard items.count == 1, case .element(let element) = first else { return false }
        return element.pointee.children == nil && element.pointee.properties == nil
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .element(let element)? = items.first else {
            throw SatchelError(
                items.isEmpty ? .valueNotFound : .typeMismatch,
                items.isEmpty ? "no element" : "expected an element, found text", keyPath: path())
        }
        return KeyedDecodingContainer(XMLKeyedModelContainer<Key>(node: self, element: element))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        XMLUnkeyedModelContainer(node: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The text of the value: an attribute's, or an element's content (all of its text).
    func text() throws -> String {
        guard let first = items.first else {
            throw SatchelError(.valueNotFound, "no element or attribute", keyPath: path())
        }
        let raw: String
        switch first {
        case .text(let text): raw = text
        case .element(let element): raw = XMLDocumentPayload.content(of: element)
        }
        return context.trims ? Self.trimmingXMLWhitespace(raw) : raw
    }

    /// `text` without XML's white space (space, tab, CR, LF) around it.
    static func trimmingXMLWhitespace(_ text: String) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == utf8.startIndex && utf8.index(after: last) == utf8.endIndex { return text }
        return String(text[first...last])
    }

    /// Decodes `type`, handling the types with a text form of their own.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self { return try decodeText("a date") { try self.context.date($0) } as! T }
        if type == Data.self { return Data(try decodeText("data") { try self.context.bytes($0) }) as! T }
        if type == URL.self {
            return try decodeText("a URL") { text in
                guard let url = URL(string: text) else { throw SatchelError(.typeMismatch, "not a URL") }
                return url
            } as! T
        }
        return try T(from: self)
    }

    /// `read` applied to the text, its failure a type mismatch naming the text.
    func decodeText<V>(_ expected: String, _ read: (String) throws -> V) throws -> V {
        let text = try text()
        do {
            return try read(text)
        } catch {
            throw SatchelError(.typeMismatch, "expected \(expected), found \"\(text)\": \(error)", keyPath: path())
        }
    }

    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let text = try text()
        switch TextualScalar.integer(text, as: I.self) {
        case .value(let value): return value
        case .outOfRange:
            throw SatchelError(.numberOutOfRange, "\(text) does not fit in \(I.self)", keyPath: path())
        case .notAnInteger:
            throw SatchelError(.typeMismatch, "expected an integer, found \"\(text)\"", keyPath: path())
        }
    }

    func decodeDouble() throws -> Double {
        let text = try text()
        guard let number = TextualScalar.double(text) else {
            throw SatchelError(.typeMismatch, "expected a number, found \"\(text)\"", keyPath: path())
        }
        return number
    }
}

extension XMLModelNode: SingleValueDecodingContainer {
    func decodeNil() -> Bool { Self.isAbsent(items) }
    func decode(_ type: Bool.Type) throws -> Bool {
        let text = try text()
        guard let flag = TextualScalar.bool(text) else {
            throw SatchelError(
                .typeMismatch, "expected a bool (\(TextualScalar.boolWords)), found \"\(text)\"", keyPath: path())
        }
        return flag
    }
    func decode(_ type: String.Type) throws -> String { try text() }
    func decode(_ type: Double.Type) throws -> Double { try decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decodeDouble()) }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

/// An element's attributes and child elements by key, gathered once.
struct XMLKeyedModelContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: XMLModelNode
    let element: xmlNodePtr
    let members: [String: [XMLModelNode.Item]]
    let order: [String]

    init(node: XMLModelNode, element: xmlNodePtr) {
        self.node = node
        self.element = element
        var members: [String: [XMLModelNode.Item]] = [:]
        var order: [String] = []
        var attribute = element.pointee.properties
        while let current = attribute {
            let name = node.context.key(prefix: current.pointee.ns?.pointee.prefix, local: current.pointee.name)
            if members[name] == nil {
                order.append(name)
                let content = XMLDocumentPayload.content(
                    of: UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self))
                members[name] = [.text(content)]
            }
            attribute = current.pointee.next
        }
        var child = element.pointee.children
        let attributeNames = Set(order)
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                let name = node.context.key(prefix: current.pointee.ns?.pointee.prefix, local: current.pointee.name)
                if !attributeNames.contains(name) {
                    if members[name] == nil { order.append(name) }
                    members[name, default: []].append(.element(current))
                }
            }
            child = current.pointee.next
        }
        self.members = members
        self.order = order
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var allKeys: [Key] { order.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { key.stringValue.isEmpty || members[key.stringValue] != nil }

    /// The items `key` names: the element's own text for `""`, else its attribute or elements.
    private func items(_ key: Key) -> [XMLModelNode.Item] {
        if key.stringValue.isEmpty { return [.element(element)] }
        return members[key.stringValue] ?? []
    }

    private func child(_ key: Key) -> XMLModelNode { node.child(items(key), key: key) }

    private func present(_ key: Key) throws -> XMLModelNode {
        let child = child(key)
        if child.items.isEmpty {
            throw SatchelError(
                .valueNotFound, "no attribute or element \"\(key.stringValue)\"", keyPath: node.path(appending: key))
        }
        return child
    }

    func decodeNil(forKey key: Key) throws -> Bool { XMLModelNode.isAbsent(items(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try present(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try present(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try present(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try present(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try present(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try present(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try present(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try present(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try present(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try present(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try present(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try present(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try present(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try present(key).decode(type) }
    /// A missing key is an empty array for an array type (no elements of that name), else an
    /// error that names it.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let items = items(key)
        if XMLModelNode.isAbsent(items) { return nil }
        return try node.child(items, key: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try present(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        XMLUnkeyedModelContainer(node: child(key))
    }

    /// The decoder of the element `super`, as `Decodable`'s contract has it (what the encoder's
    /// `superEncoder()` writes).
    func superDecoder() throws -> any Decoder {
        node.child(members["super"] ?? [], key: ValueCodingKey(stringValue: "super"))
    }
    func superDecoder(forKey key: Key) throws -> any Decoder { child(key) }
}

/// The elements one key named, in document order.
struct XMLUnkeyedModelContainer: UnkeyedDecodingContainer {
    let node: XMLModelNode
    var currentIndex = 0

    init(node: XMLModelNode) {
        self.node = node
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int? { node.items.count }
    var isAtEnd: Bool { currentIndex >= node.items.count }

    private mutating func next() throws -> XMLModelNode {
        let key = ValueCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw SatchelError(
                .valueNotFound, "only \(node.items.count) elements", keyPath: node.path(appending: key))
        }
        defer { currentIndex += 1 }
        return node.child([node.items[currentIndex]], key: key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, XMLModelNode.isAbsent([node.items[currentIndex]]) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        XMLUnkeyedModelContainer(node: try next())
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
