// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

struct KeyedJSONStreamContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONStreamEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private var writer: JSONStreamWriter { encoder.writer }

    func encodeNil(forKey key: Key) throws {
        try encoder.beginMember(key)
        writer.bytes.append(contentsOf: "null".utf8)
    }
    func encode(_ value: Bool, forKey key: Key) throws {
        try encoder.beginMember(key)
        writer.writeBool(value)
    }
    func encode(_ value: String, forKey key: Key) throws {
        try encoder.beginMember(key)
        writer.writeString(value)
    }
    func encode(_ value: Double, forKey key: Key) throws {
        try encoder.beginMember(key)
        try writer.writeDouble(value, at: encoder, key: key)
    }
    func encode(_ value: Float, forKey key: Key) throws {
        try encoder.beginMember(key)
        try writer.writeDouble(Double(value), at: encoder, key: key)
    }
    func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

    private func integer<I: FixedWidthInteger>(_ value: I, _ key: Key) throws {
        try encoder.beginMember(key)
        writer.writeInteger(value)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.beginMember(key)
        try encoder.write(value, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.child(key: key)
        do {
            try encoder.beginMember(key)
            try nested.open(keyed: true)
        } catch {
            // Cannot throw here: the writer is abandoned and the nested container's first
            // write throws.
            nested.state = .closed
        }
        return KeyedEncodingContainer(KeyedJSONStreamContainer<NestedKey>(encoder: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoder.child(key: key)
        do {
            try encoder.beginMember(key)
            try nested.open(keyed: false)
        } catch {
            nested.state = .closed  // as in `nestedContainer(keyedBy:forKey:)`
        }
        return UnkeyedJSONStreamContainer(encoder: nested)
    }

    func superEncoder() -> any Encoder { superEncoder(named: ValueCodingKey(stringValue: "super")) }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    /// An encoder for the member `key`, written when the member is (`{}` if it never is).
    private func superEncoder(named key: some CodingKey) -> any Encoder {
        let nested = encoder.child(key: key)
        do {
            try encoder.beginMember(key)
            writer.open.append(nested)
        } catch {
            nested.state = .closed  // as in `nestedContainer(keyedBy:forKey:)`
        }
        return nested
    }
}

struct UnkeyedJSONStreamContainer: UnkeyedEncodingContainer {
    let encoder: JSONStreamEncoder
    private(set) var count = 0

    init(encoder: JSONStreamEncoder) {
        self.encoder = encoder
    }

    var codingPath: [any CodingKey] { encoder.codingPath }

    private var writer: JSONStreamWriter { encoder.writer }

    private mutating func next() throws -> ValueCodingKey {
        try encoder.beginElement()
        defer { count += 1 }
        return ValueCodingKey(intValue: count)
    }

    mutating func encodeNil() throws {
        _ = try next()
        writer.bytes.append(contentsOf: "null".utf8)
    }
    mutating func encode(_ value: Bool) throws {
        _ = try next()
        writer.writeBool(value)
    }
    mutating func encode(_ value: String) throws {
        _ = try next()
        writer.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        let key = try next()
        try writer.writeDouble(value, at: encoder, key: key)
    }
    mutating func encode(_ value: Float) throws {
        let key = try next()
        try writer.writeDouble(Double(value), at: encoder, key: key)
    }
    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private mutating func integer<I: FixedWidthInteger>(_ value: I) throws {
        _ = try next()
        writer.writeInteger(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = try next()
        try encoder.write(value, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.child(key: ValueCodingKey(intValue: count))
        do {
            _ = try next()
            try nested.open(keyed: true)
        } catch {
            nested.state = .closed  // as in the keyed container's `nestedContainer`
        }
        return KeyedEncodingContainer(KeyedJSONStreamContainer<NestedKey>(encoder: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = encoder.child(key: ValueCodingKey(intValue: count))
        do {
            _ = try next()
            try nested.open(keyed: false)
        } catch {
            nested.state = .closed
        }
        return UnkeyedJSONStreamContainer(encoder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = encoder.child(key: ValueCodingKey(intValue: count))
        do {
            _ = try next()
            writer.open.append(nested)
        } catch {
            nested.state = .closed
        }
        return nested
    }
}
