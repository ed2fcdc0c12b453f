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
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        let node = ValueEncodingNode(codingPath: [], userInfo: userInfo, absentOptionals: encodesAbsentOptionals)
        do {
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
    let codingPath: [any CodingKey]
    let userInfoStorage: [CodingUserInfoKey: any Sendable]
    /// ``ValueEncoder/encodesAbsentOptionals``.
    let encodesAbsentOptionals: Bool

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable], absentOptionals: Bool) {
        self.codingPath = codingPath
        self.userInfoStorage = userInfo
        self.encodesAbsentOptionals = absentOptionals
    }

    /// A node for a member or element of this one.
    func child(at key: any CodingKey) -> ValueEncodingNode {
        ValueEncodingNode(
            codingPath: codingPath + [key], userInfo: userInfoStorage, absentOptionals: encodesAbsentOptionals)
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
    static func native<T: Encodable>(_ value: T) -> Value? {
        switch value {
        case let value as Value: value
        case let value as String: .string(value)
        case let value as Bool: .bool(value)
        case let value as Int: .integer(Int64(value))
        case let value as Double: .double(value)
        case let value as Int64: .integer(value)
        case let value as Date: .date(value)
        case let value as Data: .bytes(Array(value))
        case let value as URL: .string(value.absoluteString)
        default: nil
        }
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
    var members: [(String, ValueSlot)] = []
    var index: [String: Int] = [:]

    func set(_ key: String, _ slot: ValueSlot) {
        if let position = index[key] {
            members[position].1 = slot
        } else {
            index[key] = members.count
            members.append((key, slot))
        }
    }

    var value: Value {
        .object(ValueObject(uniqueKeysWithValues: members.map { ($0.0, $0.1.value) }))
    }
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
