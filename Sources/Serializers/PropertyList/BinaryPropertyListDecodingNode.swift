// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes a `Decodable` straight from a binary property list's object table: containers are
/// walked by reference, never built; each scalar is read where it lies and unboxed by
/// ``ValueDecoder``'s rules, so both paths give the same values and errors.
///
/// The reader's bounds hold here too: nesting deeper than `maxDepth` (a reference cycle into a
/// recursive model ends there), dictionaries past `maxPairs`, strings past `maxStringBytes`, and
/// more than `maxBodyBytes` objects read in all (shared objects counted at each use).
final class BinaryPropertyListDecodingNode: Decoder, CodingPathNode {
    /// What every node of one decode shares.
    final class Context {
        let reader: BinaryPropertyListReader
        var objectsRead = 0

        init(reader: BinaryPropertyListReader) {
            self.reader = reader
        }

        /// Counts one more object read, against `maxBodyBytes`.
        func count(at offset: Int) throws(SatchelError) {
            objectsRead += 1
            if objectsRead > reader.limits.maxBodyBytes {
                throw SatchelError.limitExceeded(
                    "maxBodyBytes", reader.limits.maxBodyBytes,
                    "the objects read from the property list (shared objects counted at each use)", offset: offset)
            }
        }
    }

    let context: Context
    let index: Int
    let depth: Int
    let parent: BinaryPropertyListDecodingNode?
    let key: (any CodingKey)?

    init(context: Context, index: Int, depth: Int, parent: BinaryPropertyListDecodingNode?, key: (any CodingKey)?) {
        self.context = context
        self.index = index
        self.depth = depth
        self.parent = parent
        self.key = key
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func child(_ index: Int, key: any CodingKey) -> BinaryPropertyListDecodingNode {
        BinaryPropertyListDecodingNode(context: context, index: index, depth: depth + 1, parent: self, key: key)
    }

    /// The offset of this node's object and its marker's high nibble.
    func object() throws -> (offset: Int, kind: UInt8) {
        let offset = try context.reader.objectOffset(index)
        try context.count(at: offset)
        return (offset, context.reader.bytes[offset] >> 4)
    }

    /// The references of the container at `offset`: its element count and where they start.
    func references(at offset: Int, perElement: Int) throws -> (count: Int, start: Int) {
        try context.reader.readReferences(at: offset, perElement: perElement, depth: depth)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let (offset, kind) = try object()
        guard kind == 0xD else { throw try mismatch("a dictionary", kind: kind, at: offset) }
        return KeyedDecodingContainer(try BinaryPropertyListKeyedContainer<Key>(node: self, offset: offset))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (offset, kind) = try object()
        guard kind == 0xA else { throw try mismatch("an array", kind: kind, at: offset) }
        let (count, start) = try references(at: offset, perElement: 1)
        return BinaryPropertyListUnkeyedContainer(node: self, count: count, start: start)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        BinaryPropertyListSingleValue(node: self)
    }

    /// This node's object as a scalar value (a container is a type mismatch).
    func scalar() throws -> Value {
        let (offset, kind) = try object()
        guard kind != 0xA, kind != 0xD else {
            throw SatchelError(
                .typeMismatch, "expected a scalar, found \(kind == 0xA ? "an array" : "a dictionary")",
                keyPath: path())
        }
        return try context.reader.decodeScalar(at: offset)
    }

    private func mismatch(_ expected: String, kind: UInt8, at offset: Int) throws -> SatchelError {
        let found = (try? context.reader.decodeScalar(at: offset))?.kindName ?? "another object"
        return SatchelError(.typeMismatch, "expected \(expected), found \(found)", keyPath: path())
    }

    /// Decodes `type`: containers through its `Decodable` conformance over this node, scalars
    /// (and `Date`, `Data`, ``Value``) by ``ValueDecoder`` from the scalar, with this path.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let offset = try context.reader.objectOffset(index)
        let kind = context.reader.bytes[offset] >> 4
        if kind == 0xA || kind == 0xD {
            guard type == Value.self else { return try T(from: self) }
            // A subtree asked for as a Value: the tree reader, from this object.
            var reader = context.reader
            return try reader.read(object: index, depth: depth) as! T
        }
        return try decodeScalar(type, from: try scalar())
    }

    /// The object `index` as `T` without a node, for the common scalar types
    /// (``ValueDecoder/scalar(_:from:)``); `nil` for other types, containers and scalars that do
    /// not fit, which then take the general path (and give its error).
    @inline(__always)
    func fastScalar<T>(_ type: T.Type, at index: Int) throws -> T? {
        guard ValueDecoder.convertsScalar(type) else { return nil }
        let reader = context.reader
        let offset = try reader.objectOffset(index)
        let kind = reader.bytes[offset] >> 4
        guard kind != 0xA, kind != 0xD else { return nil }
        guard let value = ValueDecoder.scalar(type, from: try reader.decodeScalar(at: offset)) else { return nil }
        try context.count(at: offset)  // counted only here: the general path counts its own read
        return value
    }

    func decodeScalar<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        do {
            return try ValueDecoder().decode(type, from: value)
        } catch {
            throw error.underKeyPath(path())
        }
    }
}

/// A node's single-value container (a property list has no null).
///
/// The standard library's scalars are read from the node's scalar (a container is a type
/// mismatch): their `init(from:)` asks this container for themselves, so handing them back to
/// ``BinaryPropertyListDecodingNode/decodeValue(_:)`` would recurse until the stack overflows.
struct BinaryPropertyListSingleValue: SingleValueDecodingContainer {
    let node: BinaryPropertyListDecodingNode

    var codingPath: [any CodingKey] { node.codingPath }
    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    func decode(_ type: String.Type) throws -> String { try scalar(type) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try node.decodeValue(type) }

    private func scalar<T: Decodable>(_ type: T.Type) throws -> T {
        try node.decodeScalar(type, from: try node.scalar())
    }
}

/// A dictionary's keys, read once, and its value references.
struct BinaryPropertyListKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: BinaryPropertyListDecodingNode
    let members: [String: Int]
    let order: [String]

    init(node: BinaryPropertyListDecodingNode, offset: Int) throws {
        self.node = node
        let reader = node.context.reader
        let (count, start) = try node.references(at: offset, perElement: 2)
        if count > reader.limits.maxPairs {
            throw SatchelError.limitExceeded(
                "maxPairs", reader.limits.maxPairs, "a dictionary of \(count) members", offset: offset)
        }
        var members: [String: Int] = [:]
        members.reserveCapacity(count)
        var order: [String] = []
        order.reserveCapacity(count)
        let valuesStart = start + count * reader.objectRefSize
        for position in 0..<count {
            let keyOffset = try reader.objectOffset(
                try reader.readReference(at: start + position * reader.objectRefSize))
            guard case .string(let key) = try reader.decodeScalar(at: keyOffset) else {
                throw SatchelError(
                    .syntaxError, "dictionary key \(position) is not a string", offset: offset, keyPath: node.path())
            }
            let value = try reader.readReference(at: valuesStart + position * reader.objectRefSize)
            if members.updateValue(value, forKey: key) == nil { order.append(key) }
        }
        self.members = members
        self.order = order
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var allKeys: [Key] { order.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func child(_ key: Key) throws -> BinaryPropertyListDecodingNode {
        guard let index = members[key.stringValue] else {
            throw SatchelError(
                .valueNotFound, "no member \"\(key.stringValue)\"", keyPath: node.path(appending: key))
        }
        return node.child(index, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { false }  // a property list has no null
    // The fast path's scalars have concrete witnesses, into which `value(_:forKey:)` is inlined
    // with `T` known: a generic one looked up `Optional<T>`'s metadata at run time on every call
    // (a sixth of a catalog's decoding, by callgrind). Synthesised `init(from:)`s call these; the
    // generic witnesses take the general path.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try valueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try valueIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try valueIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try valueIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try valueIfPresent(type, forKey: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard members[key.stringValue] != nil else { return nil }
        return try child(key).decodeValue(type)
    }

    @inline(__always)
    private func value<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let index = members[key.stringValue], let value = try node.fastScalar(type, at: index) { return value }
        return try child(key).decodeValue(type)
    }
    @inline(__always)
    private func valueIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = members[key.stringValue] else { return nil }
        if let value = try node.fastScalar(type, at: index) { return value }
        return try child(key).decodeValue(type)
    }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }
    /// The decoder of the member `super`, as `Decodable`'s contract and every other decoder have it.
    func superDecoder() throws -> any Decoder {
        let key = ValueCodingKey(stringValue: "super")
        guard let index = members[key.stringValue] else {
            throw SatchelError(.valueNotFound, "no member \"super\"", keyPath: node.path(appending: key))
        }
        return node.child(index, key: key)
    }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

/// An array's element references, in order.
struct BinaryPropertyListUnkeyedContainer: UnkeyedDecodingContainer {
    let node: BinaryPropertyListDecodingNode
    let count: Int?
    let start: Int
    var currentIndex = 0

    init(node: BinaryPropertyListDecodingNode, count: Int, start: Int) {
        self.node = node
        self.count = count
        self.start = start
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func next() throws -> BinaryPropertyListDecodingNode {
        let key = ValueCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw SatchelError(
                .valueNotFound, "the array has only \(count ?? 0) elements", keyPath: node.path(appending: key))
        }
        let reader = node.context.reader
        let index = try reader.readReference(at: start + currentIndex * reader.objectRefSize)
        currentIndex += 1
        return node.child(index, key: key)
    }

    mutating func decodeNil() throws -> Bool { false }
    // Concrete witnesses for the fast path's scalars, as in the keyed container.
    mutating func decode(_ type: String.Type) throws -> String { try value(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try value(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try value(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    /// Arrays ask for their elements here (`Element.self`): the fast path's scalars go to their
    /// concrete witnesses.
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == String.self { return unsafeBitCast(try value(String.self), to: T.self) }
        if type == Int.self { return unsafeBitCast(try value(Int.self), to: T.self) }
        if type == Double.self { return unsafeBitCast(try value(Double.self), to: T.self) }
        if type == Bool.self { return unsafeBitCast(try value(Bool.self), to: T.self) }
        if type == Int64.self { return unsafeBitCast(try value(Int64.self), to: T.self) }
        return try next().decodeValue(type)
    }

    @inline(__always)
    private mutating func value<T: Decodable>(_ type: T.Type) throws -> T {
        if !isAtEnd {
            let reader = node.context.reader
            let index = try reader.readReference(at: start + currentIndex * reader.objectRefSize)
            if let value = try node.fastScalar(type, at: index) {
                currentIndex += 1
                return value
            }
        }
        return try next().decodeValue(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
