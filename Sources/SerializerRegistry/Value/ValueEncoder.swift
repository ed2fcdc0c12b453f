// SPDX-License-Identifier: Apache-2.0
import OrderedCollections

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes `Encodable` values into a ``Value`` tree (the `Codable` bridge out).
///
/// Keyed containers become objects whose members keep the order in which they were encoded;
/// `Date` becomes ``Value/date(_:)``, `Data` ``Value/bytes(_:)``, `URL` its absolute string, and
/// a ``Value`` is inserted as it is. Unsigned integers above `Int64.max` stay exact.
public struct ValueEncoder: Sendable {
    /// Values made available to `Encodable` implementations through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Whether an optional that is `nil` still writes its key, as ``Value/null`` (`true`), or is
    /// left out (`false`, as synthesized `Codable` does): the form encoder's nil encodings need it.
    package var encodesAbsentOptionals = false

    /// Creates an encoder.
    public init() {}

    /// Encodes `value`.
    /// - Throws: ``SatchelError`` with ``SatchelError/Code/unencodableValue`` when the value
    ///   encodes nothing, or the error thrown by its `encode(to:)` as underlying.
    public func encode<T: Encodable>(_ value: T) throws(SatchelError) -> Value {
        let node = ValueEncodingNode(path: nil, userInfo: userInfo, absentOptionals: encodesAbsentOptionals)
        do {
            // `encode(to:)` is the caller's and throws any error (`Encoder`'s `throws` is untyped).
            try node.encodeValue(value)
        } catch let error as SatchelError {
            throw error
        } catch {
            throw SatchelError(.unencodableValue, "\(T.self) could not be encoded", underlying: error)
        }
        guard let result = node.result else {
            throw SatchelError(.unencodableValue, "\(T.self) did not encode any value")
        }
        return result
    }
}

/// One value under construction. Containers write into the node's storage; nested containers
/// are child nodes resolved when the tree is finished.
final class ValueEncodingNode: Encoder {
    enum Storage {
        case empty
        case single(Value)
        case keyed(ValueObjectBuilder)
        case unkeyed(ValueArrayBuilder)
    }

    var storage = Storage.empty
    /// The keys that lead here, as a list shared with this node's children: no array per node,
    /// and no reference to the parent node (which holds its children, so that would be a cycle).
    let path: ValueEncodingPath?
    let userInfoStorage: [CodingUserInfoKey: any Sendable]
    /// ``ValueEncoder/encodesAbsentOptionals``.
    let encodesAbsentOptionals: Bool

    init(path: ValueEncodingPath?, userInfo: [CodingUserInfoKey: any Sendable], absentOptionals: Bool) {
        self.path = path
        self.userInfoStorage = userInfo
        self.encodesAbsentOptionals = absentOptionals
    }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = path
        while let current = link {
            keys.append(current.key)
            link = current.parent
        }
        return keys.reversed()
    }

    /// A node for a member or element of this one.
    func child(at key: any CodingKey) -> ValueEncodingNode {
        ValueEncodingNode(
            path: ValueEncodingPath(key: key, parent: path), userInfo: userInfoStorage,
            absentOptionals: encodesAbsentOptionals)
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    var result: Value? {
        switch storage {
        case .empty: nil
        case .single(let value): value
        case .keyed(let builder): builder.value
        case .unkeyed(let builder): builder.value
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let builder: ValueObjectBuilder
        if case .keyed(let existing) = storage {
            builder = existing
        } else {
            builder = ValueObjectBuilder()
            storage = .keyed(builder)
        }
        return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(node: self, builder: builder))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let builder: ValueArrayBuilder
        if case .unkeyed(let existing) = storage {
            builder = existing
        } else {
            builder = ValueArrayBuilder()
            storage = .unkeyed(builder)
        }
        return UnkeyedValueEncodingContainer(node: self, builder: builder)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The value of `value` when it has a native representation, else `nil`.
    ///
    /// Metatype comparisons, not `as?` casts: in this unspecialized generic code a cast calls into
    /// the runtime, a comparison is a load and a compare. Each `unsafeBitCast` reinterprets the
    /// value as the very type the comparison before it proved `T` to be.
    static func native<T: Encodable>(_ value: T) -> Value? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Value.self { return unsafeBitCast(value, to: Value.self) }
        if T.self == Int64.self { return .integer(unsafeBitCast(value, to: Int64.self)) }
        if T.self == Date.self { return .date(unsafeBitCast(value, to: Date.self)) }
        if T.self == Data.self { return .bytes(Array(unsafeBitCast(value, to: Data.self))) }
        if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
        return nil
    }

    /// Encodes `value` as this node's value.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let native = Self.native(value) {
            storage = .single(native)
        } else {
            try value.encode(to: self)
        }
    }

    /// Encodes `value` in a child node at `key` and returns what it became.
    func encodeChild<T: Encodable>(_ value: T, key: any CodingKey) throws -> ValueSlot {
        if let native = Self.native(value) { return .value(native) }
        let child = child(at: key)
        try value.encode(to: child)
        return .node(child)
    }
}

/// A coding path as a linked list from the innermost key.
final class ValueEncodingPath {
    let key: any CodingKey
    let parent: ValueEncodingPath?

    init(key: any CodingKey, parent: ValueEncodingPath?) {
        self.key = key
        self.parent = parent
    }
}

/// A member or element: a finished value or a node still being filled.
enum ValueSlot {
    case value(Value)
    case node(ValueEncodingNode)

    var value: Value {
        switch self {
        case .value(let value): value
        case .node(let node): node.result ?? .object([:])
        }
    }
}

final class ValueObjectBuilder {
    /// The members in the order of their first encoding; a key encoded again replaces the value
    /// in place.
    var members: OrderedDictionary<String, ValueSlot> = [:]

    func set(_ key: String, _ slot: ValueSlot) { members[key] = slot }

    var value: Value { .object(members.mapValues(\.value)) }
}

final class ValueArrayBuilder {
    var elements: [ValueSlot] = []
    var value: Value { .array(elements.map(\.value)) }
}

extension ValueEncodingNode: SingleValueEncodingContainer {
    func encodeNil() { storage = .single(.null) }
    func encode(_ value: Bool) { storage = .single(.bool(value)) }
    func encode(_ value: String) { storage = .single(.string(value)) }
    func encode(_ value: Double) { storage = .single(.double(value)) }
    func encode(_ value: Float) { storage = .single(.double(Double(value))) }
    func encode(_ value: Int) { storage = .single(.integer(Int64(value))) }
    func encode(_ value: Int8) { storage = .single(.integer(Int64(value))) }
    func encode(_ value: Int16) { storage = .single(.integer(Int64(value))) }
    func encode(_ value: Int32) { storage = .single(.integer(Int64(value))) }
    func encode(_ value: Int64) { storage = .single(.integer(value)) }
    func encode(_ value: UInt) { storage = .single(Value(UInt64(value))) }
    func encode(_ value: UInt8) { storage = .single(.integer(Int64(value))) }
    func encode(_ value: UInt16) { storage = .single(.integer(Int64(value))) }
    func encode(_ value: UInt32) { storage = .single(.integer(Int64(value))) }
    func encode(_ value: UInt64) { storage = .single(Value(value)) }
    func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}
