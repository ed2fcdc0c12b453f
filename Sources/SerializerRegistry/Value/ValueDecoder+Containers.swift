// SPDX-License-Identifier: Apache-2.0
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecodingNode
    let members: ValueObject

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> Value {
        guard let value = members[key.stringValue] else {
            throw SatchelError(
                .valueNotFound, "no member \"\(key.stringValue)\"", keyPath: decoder.path(appending: key))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isAbsent(try member(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.unboxBool(member(key), key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unboxString(member(key), key: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxDouble(member(key), key: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.unboxFloat(member(key), key: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.unboxInteger(member(key), as: type, key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, from: member(key), key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], !decoder.isAbsent(value) else { return nil }
        return try decoder.decode(type, from: value, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(member(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(member(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(members["super"] ?? .null, key: ValueCodingKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(members[key.stringValue] ?? .null, key: key)
    }
}

struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecodingNode
    let elements: [Value]
    var currentIndex = 0

    init(decoder: ValueDecodingNode, elements: [Value]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> (Value, ValueCodingKey) {
        let key = ValueCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw SatchelError(
                .valueNotFound, "the array has only \(elements.count) elements", keyPath: decoder.path(appending: key))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.isAbsent(elements[currentIndex]) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (value, key) = try next(); return try decoder.unboxBool(value, key: key)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (value, key) = try next(); return try decoder.unboxString(value, key: key)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (value, key) = try next(); return try decoder.unboxDouble(value, key: key)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (value, key) = try next(); return try decoder.unboxFloat(value, key: key)
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let (value, key) = try next(); return try decoder.unboxInteger(value, as: type, key: key)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, key) = try next()
        return try decoder.decode(type, from: value, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, key) = try next()
        return try decoder.child(value, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, key) = try next()
        return try decoder.child(value, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, key) = try next()
        return decoder.child(value, key: key)
    }
}

/// A coding key for array indices and `super`, shared by the typed decoders and encoders.
///
/// An index's text is made only when asked for: keys are made for every element, their text
/// mostly only for an error's key path.
package struct ValueCodingKey: CodingKey {
    private let name: String?
    package let intValue: Int?

    package var stringValue: String { name ?? "\(intValue ?? 0)" }

    package init(stringValue: String) {
        self.name = stringValue
        self.intValue = nil
    }

    package init(intValue: Int) {
        self.name = nil
        self.intValue = intValue
    }
}
