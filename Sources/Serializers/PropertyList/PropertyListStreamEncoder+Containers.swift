// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

struct KeyedPropertyListStreamContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: PropertyListStreamEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private var output: any PropertyListOutput { encoder.writer.output }
    private var depth: Int { encoder.depth + 1 }

    func encodeNil(forKey key: Key) throws {
        try encoder.beginMember(key)
        throw encoder.refuseNil(key: key)
    }
    func encode(_ value: Bool, forKey key: Key) throws {
        try encoder.beginMember(key)
        output.bool(value, depth: depth)
    }
    func encode(_ value: String, forKey key: Key) throws {
        try encoder.beginMember(key)
        try encoder.writeString(value, key: key)
    }
    func encode(_ value: Double, forKey key: Key) throws {
        try encoder.beginMember(key)
        output.double(value, depth: depth)
    }
    func encode(_ value: Float, forKey key: Key) throws {
        try encoder.beginMember(key)
        output.double(Double(value), depth: depth)
    }
    func encode(_ value: Int, forKey key: Key) throws { try signed(value, key) }
    func encode(_ value: Int8, forKey key: Key) throws { try signed(value, key) }
    func encode(_ value: Int16, forKey key: Key) throws { try signed(value, key) }
    func encode(_ value: Int32, forKey key: Key) throws { try signed(value, key) }
    func encode(_ value: Int64, forKey key: Key) throws { try signed(value, key) }
    func encode(_ value: UInt, forKey key: Key) throws { try unsigned(value, key) }
    func encode(_ value: UInt8, forKey key: Key) throws { try unsigned(value, key) }
    func encode(_ value: UInt16, forKey key: Key) throws { try unsigned(value, key) }
    func encode(_ value: UInt32, forKey key: Key) throws { try unsigned(value, key) }
    func encode(_ value: UInt64, forKey key: Key) throws { try unsigned(value, key) }

    private func signed<I: FixedWidthInteger & SignedInteger>(_ value: I, _ key: Key) throws {
        try encoder.beginMember(key)
        output.integer(Int64(value), depth: depth)
    }

    private func unsigned<I: FixedWidthInteger & UnsignedInteger>(_ value: I, _ key: Key) throws {
        try encoder.beginMember(key)
        output.unsignedInteger(UInt64(value), depth: depth)
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
        return KeyedEncodingContainer(KeyedPropertyListStreamContainer<NestedKey>(encoder: nested))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoder.child(key: key)
        do {
            try encoder.beginMember(key)
            try nested.open(keyed: false)
        } catch {
            nested.state = .closed  // as in `nestedContainer(keyedBy:forKey:)`
        }
        return UnkeyedPropertyListStreamContainer(encoder: nested)
    }

    func superEncoder() -> any Encoder { superEncoder(named: ValueCodingKey(stringValue: "super")) }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    /// An encoder for the member `key`, written when the member is (an empty dictionary if it
    /// never is).
    private func superEncoder(named key: some CodingKey) -> any Encoder {
        let nested = encoder.child(key: key)
        do {
            try encoder.beginMember(key)
            encoder.writer.open.append(nested)
        } catch {
            nested.state = .closed  // as in `nestedContainer(keyedBy:forKey:)`
        }
        return nested
    }
}

struct UnkeyedPropertyListStreamContainer: UnkeyedEncodingContainer {
    let encoder: PropertyListStreamEncoder
    private(set) var count = 0

    init(encoder: PropertyListStreamEncoder) {
        self.encoder = encoder
    }

    var codingPath: [any CodingKey] { encoder.codingPath }

    private var output: any PropertyListOutput { encoder.writer.output }
    private var depth: Int { encoder.depth + 1 }

    private mutating func next() throws -> ValueCodingKey {
        try encoder.beginElement()
        defer { count += 1 }
        return ValueCodingKey(intValue: count)
    }

    mutating func encodeNil() throws {
        let key = try next()
        throw encoder.refuseNil(key: key)
    }
    mutating func encode(_ value: Bool) throws {
        _ = try next()
        output.bool(value, depth: depth)
    }
    mutating func encode(_ value: String) throws {
        let key = try next()
        try encoder.writeString(value, key: key)
    }
    mutating func encode(_ value: Double) throws {
        _ = try next()
        output.double(value, depth: depth)
    }
    mutating func encode(_ value: Float) throws {
        _ = try next()
        output.double(Double(value), depth: depth)
    }
    mutating func encode(_ value: Int) throws { try signed(value) }
    mutating func encode(_ value: Int8) throws { try signed(value) }
    mutating func encode(_ value: Int16) throws { try signed(value) }
    mutating func encode(_ value: Int32) throws { try signed(value) }
    mutating func encode(_ value: Int64) throws { try signed(value) }
    mutating func encode(_ value: UInt) throws { try unsigned(value) }
    mutating func encode(_ value: UInt8) throws { try unsigned(value) }
    mutating func encode(_ value: UInt16) throws { try unsigned(value) }
    mutating func encode(_ value: UInt32) throws { try unsigned(value) }
    mutating func encode(_ value: UInt64) throws { try unsigned(value) }

    private mutating func signed<I: FixedWidthInteger & SignedInteger>(_ value: I) throws {
        _ = try next()
        output.integer(Int64(value), depth: depth)
    }

    private mutating func unsigned<I: FixedWidthInteger & UnsignedInteger>(_ value: I) throws {
        _ = try next()
        output.unsignedInteger(UInt64(value), depth: depth)
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
        return KeyedEncodingContainer(KeyedPropertyListStreamContainer<NestedKey>(encoder: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = encoder.child(key: ValueCodingKey(intValue: count))
        do {
            _ = try next()
            try nested.open(keyed: false)
        } catch {
            nested.state = .closed
        }
        return UnkeyedPropertyListStreamContainer(encoder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = encoder.child(key: ValueCodingKey(intValue: count))
        do {
            _ = try next()
            encoder.writer.open.append(nested)
        } catch {
            nested.state = .closed
        }
        return nested
    }
}
