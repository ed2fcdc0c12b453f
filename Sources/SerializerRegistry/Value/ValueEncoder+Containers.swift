// SPDX-License-Identifier: Apache-2.0
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: ValueEncodingNode
    let builder: ValueObjectBuilder

    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil(forKey key: Key) { builder.set(key.stringValue, .value(.null)) }
    mutating func encode(_ value: Bool, forKey key: Key) { builder.set(key.stringValue, .value(.bool(value))) }
    mutating func encode(_ value: String, forKey key: Key) { builder.set(key.stringValue, .value(.string(value))) }
    mutating func encode(_ value: Double, forKey key: Key) { builder.set(key.stringValue, .value(.double(value))) }
    mutating func encode(_ value: Float, forKey key: Key) {
        builder.set(key.stringValue, .value(.double(Double(value))))
    }
    mutating func encode(_ value: Int, forKey key: Key) { builder.set(key.stringValue, .value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int8, forKey key: Key) {
        builder.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: Int16, forKey key: Key) {
        builder.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: Int32, forKey key: Key) {
        builder.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: Int64, forKey key: Key) { builder.set(key.stringValue, .value(.integer(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) { builder.set(key.stringValue, .value(Value(UInt64(value)))) }
    mutating func encode(_ value: UInt8, forKey key: Key) {
        builder.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: UInt16, forKey key: Key) {
        builder.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) {
        builder.set(key.stringValue, .value(.integer(Int64(value))))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) { builder.set(key.stringValue, .value(Value(value))) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        builder.set(key.stringValue, try node.encodeChild(value, key: key))
    }

    // Absent optionals: left out, or written as null (``ValueEncoder/encodesAbsentOptionals``).
    private mutating func encodeOptional<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else if node.encodesAbsentOptionals {
            encodeNil(forKey: key)
        }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try encodeOptional(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(at: key)
        builder.set(key.stringValue, .node(child))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(at: key)
        builder.set(key.stringValue, .node(child))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: ValueCodingKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(forKey: key as any CodingKey)
    }

    private func superEncoder(forKey key: any CodingKey) -> any Encoder {
        let child = node.child(at: key)
        builder.set(key.stringValue, .node(child))
        return child
    }
}

struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let node: ValueEncodingNode
    let builder: ValueArrayBuilder

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { builder.elements.count }

    private var nextKey: any CodingKey { ValueCodingKey(intValue: builder.elements.count) }

    mutating func encodeNil() { builder.elements.append(.value(.null)) }
    mutating func encode(_ value: Bool) { builder.elements.append(.value(.bool(value))) }
    mutating func encode(_ value: String) { builder.elements.append(.value(.string(value))) }
    mutating func encode(_ value: Double) { builder.elements.append(.value(.double(value))) }
    mutating func encode(_ value: Float) { builder.elements.append(.value(.double(Double(value)))) }
    mutating func encode(_ value: Int) { builder.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int8) { builder.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int16) { builder.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int32) { builder.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: Int64) { builder.elements.append(.value(.integer(value))) }
    mutating func encode(_ value: UInt) { builder.elements.append(.value(Value(UInt64(value)))) }
    mutating func encode(_ value: UInt8) { builder.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt16) { builder.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt32) { builder.elements.append(.value(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt64) { builder.elements.append(.value(Value(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        builder.elements.append(try node.encodeChild(value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(at: nextKey)
        builder.elements.append(.node(child))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.child(at: nextKey)
        builder.elements.append(.node(child))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = node.child(at: nextKey)
        builder.elements.append(.node(child))
        return child
    }
}
