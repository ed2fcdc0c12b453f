import CSatchelJSONC
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `Decodable` types straight from a json-c tree, skipping the ``Value`` tree.
///
/// Keyed lookups use json-c's own hash table; only the members a type asks for are converted.
/// Conversions follow ``ValueDecoder``: numbers convert only when exact, and `Date`, `Data`,
/// `URL` and ``Value`` members are decoded by ``ValueDecoder`` from their converted value.
final class JSONNodeDecoder: Decoder, DecodingNode {
    let node: OpaquePointer?
    let parent: JSONNodeDecoder?
    let key: (any CodingKey)?
    let converter: JSONTree
    /// The owner of json-c's tree, held by the root decoder; every other decoder holds its
    /// parent, so a `Decodable` that keeps a decoder keeps the tree alive too.
    let treeOwner: AnyObject?

    init(
        node: OpaquePointer?, parent: JSONNodeDecoder?, key: (any CodingKey)?, converter: JSONTree,
        treeOwner: AnyObject? = nil
    ) {
        self.treeOwner = treeOwner
        self.node = node
        self.parent = parent
        self.key = key
        self.converter = converter
    }

    /// Decodes `type` from the tree at `root`.
    static func decode<T: Decodable>(
        _ type: T.Type, from root: OpaquePointer?, converter: JSONTree, treeOwner: AnyObject
    ) throws -> T {
        let decoder = JSONNodeDecoder(node: root, parent: nil, key: nil, converter: converter, treeOwner: treeOwner)
        return try SatchelError.decoding(type) { try decoder.decodeValue(type) }
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func kindName(_ node: OpaquePointer?) -> String {
        guard let node else { return "null" }
        switch json_object_get_type(node) {
        case json_type_boolean: return "bool"
        case json_type_int: return "integer"
        case json_type_double: return "double"
        case json_type_string: return "string"
        case json_type_array: return "array"
        case json_type_object: return "object"
        default: return "null"
        }
    }

    func mismatch(_ expected: String, _ found: OpaquePointer?, key: (any CodingKey)?) -> SatchelError {
        let code: SatchelError.Code = found == nil ? .valueNotFound : .typeMismatch
        return SatchelError(code, "expected \(expected), found \(Self.kindName(found))", keyPath: path(appending: key))
    }

    func child(_ node: OpaquePointer?, key: any CodingKey) -> JSONNodeDecoder {
        JSONNodeDecoder(node: node, parent: self, key: key, converter: converter)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let node, json_object_get_type(node) == json_type_object else {
            throw mismatch("an object", node, key: nil)
        }
        let count = Int(json_object_object_length(node))
        if count > converter.maxPairs {
            throw SatchelError.limitExceeded(
                "maxPairs", converter.maxPairs, "an object with \(count) members", keyPath: path(appending: nil))
        }
        return KeyedDecodingContainer(KeyedJSONNodeContainer<Key>(decoder: self, object: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let node, json_object_get_type(node) == json_type_array else {
            throw mismatch("an array", node, key: nil)
        }
        return UnkeyedJSONNodeContainer(decoder: self, array: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes `type` from this decoder's node.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Value.self || type == Date.self || type == Data.self || type == URL.self {
            return try decodeThroughValue(type, node: node, key: nil)
        }
        return try T(from: self)
    }

    /// Converts `node` to a ``Value`` and decodes `type` from it, keeping the key path.
    func decodeThroughValue<T: Decodable>(_ type: T.Type, node: OpaquePointer?, key: (any CodingKey)?) throws -> T {
        do {
            return try ValueDecoder().decode(type, from: converter.value(of: node))
        } catch let error as SatchelError {
            throw error.underKeyPath(path(appending: key))
        }
    }

    /// Decodes `type` from `node`, a member or element of this decoder's node.
    ///
    /// Scalars and arrays of scalars take ``fastValue(_:from:)``; when it returns `nil` (another
    /// type, or a node that does not fit) the general path decodes or throws.
    func decode<T: Decodable>(_ type: T.Type, from node: OpaquePointer?, key: any CodingKey) throws -> T {
        if let value = Self.fastValue(type, from: node) { return value }
        return try child(node, key: key).decodeValue(type)
    }

    // MARK: Scalars

    func unboxBool(_ node: OpaquePointer?, key: (any CodingKey)?) throws -> Bool {
        guard let value = Self.boolValue(node) else { throw mismatch("a bool", node, key: key) }
        return value
    }

    func unboxString(_ node: OpaquePointer?, key: (any CodingKey)?) throws -> String {
        guard let value = Self.stringValue(node) else { throw mismatch("a string", node, key: key) }
        return value
    }

    func unboxDouble(_ node: OpaquePointer?, key: (any CodingKey)?) throws -> Double {
        if let number = Self.doubleValue(node) { return number }
        if let node, json_object_get_type(node) == json_type_double {
            throw SatchelError(
                .numberOutOfRange, "the number is outside the range of Double", keyPath: path(appending: key))
        }
        throw mismatch("a number", node, key: key)
    }

    func unboxFloat(_ node: OpaquePointer?, key: (any CodingKey)?) throws -> Float {
        let number = try unboxDouble(node, key: key)
        let single = Float(number)
        guard single.isFinite else {
            throw SatchelError(.numberOutOfRange, "\(number) does not fit in Float", keyPath: path(appending: key))
        }
        return single
    }

    func unboxInteger<I: FixedWidthInteger>(_ node: OpaquePointer?, as type: I.Type, key: (any CodingKey)?) throws -> I
    {
        guard let node else { throw mismatch("an integer", node, key: key) }
        let result: I?
        switch json_object_get_type(node) {
        case json_type_int:
            let signed = json_object_get_int64(node)
            result = signed == Int64.max ? I(exactly: json_object_get_uint64(node)) : I(exactly: signed)
        case json_type_double:
            let number = json_object_get_double(node)
            result = number.isFinite ? I(exactly: number) : nil
        default:
            throw mismatch("an integer", node, key: key)
        }
        guard let result else {
            let text = String(cString: json_object_to_json_string_ext(node, JSON_C_TO_STRING_PLAIN))
            throw SatchelError(.numberOutOfRange, "\(text) does not fit in \(I.self)", keyPath: path(appending: key))
        }
        return result
    }
}

extension JSONNodeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { node == nil }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(node, key: nil) }
    func decode(_ type: String.Type) throws -> String { try unboxString(node, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(node, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(node, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(node, as: type, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(node, as: type, key: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}
