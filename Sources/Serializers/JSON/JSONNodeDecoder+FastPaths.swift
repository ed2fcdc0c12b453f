import CSatchelJSONC

/// Non-throwing readers of json-c nodes, shared by the throwing `unbox…` functions and by the
/// fast paths that decode common types without going through the `Decodable` machinery.
///
/// Each returns `nil` exactly where the matching `unbox…` function throws; a fast path that sees
/// `nil` hands the whole value to the general path, which throws the same error it always threw
/// (so errors, key paths and messages do not depend on which path ran).
extension JSONNodeDecoder {
    /// The node's text, if it is a string.
    static func stringValue(_ node: OpaquePointer?) -> String? {
        guard let node, json_object_get_type(node) == json_type_string, let text = json_object_get_string(node) else {
            return nil
        }
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(json_object_get_string_len(node))), as: UTF8.self)
    }

    /// The node's truth value, if it is a bool.
    static func boolValue(_ node: OpaquePointer?) -> Bool? {
        guard let node, json_object_get_type(node) == json_type_boolean else { return nil }
        return json_object_get_boolean(node) != 0
    }

    /// The node's number as a `Double`, if it is a number and finite.
    static func doubleValue(_ node: OpaquePointer?) -> Double? {
        guard let node else { return nil }
        switch json_object_get_type(node) {
        case json_type_int:
            let signed = json_object_get_int64(node)
            return signed == Int64.max ? Double(json_object_get_uint64(node)) : Double(signed)
        case json_type_double:
            let number = json_object_get_double(node)
            return number.isFinite ? number : nil
        default:
            return nil
        }
    }

    /// The node's number as an `I`, if it is a number that `I` holds exactly.
    static func integerValue<I: FixedWidthInteger>(_ node: OpaquePointer?, as type: I.Type) -> I? {
        guard let node else { return nil }
        switch json_object_get_type(node) {
        case json_type_int:
            let signed = json_object_get_int64(node)
            return signed == Int64.max ? I(exactly: json_object_get_uint64(node)) : I(exactly: signed)
        case json_type_double:
            let number = json_object_get_double(node)
            return number.isFinite ? I(exactly: number) : nil
        default:
            return nil
        }
    }

    /// The elements of `node`, read with `element`, if it is an array and every element reads.
    ///
    /// What `Array.init(from:)` does through an unkeyed container, without a child decoder, a
    /// boxed container and generic metadata look-ups per array and per element.
    static func arrayValue<Element>(_ node: OpaquePointer?, _ element: (OpaquePointer?) -> Element?) -> [Element]? {
        guard let node, json_object_get_type(node) == json_type_array else { return nil }
        let count = json_object_array_length(node)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            guard let value = element(json_object_array_get_idx(node, index)) else { return nil }
            elements.append(value)
        }
        return elements
    }

    /// The array types with a fast path, looked up once: in unspecialized generic code
    /// `[Double].self` asks the runtime for the generic type's metadata on every use.
    private enum ArrayTypes {
        static let doubles: Any.Type = [Double].self
        static let strings: Any.Type = [String].self
        static let ints: Any.Type = [Int].self
        static let int64s: Any.Type = [Int64].self
        static let bools: Any.Type = [Bool].self
    }

    /// `node` decoded as `T` without the `Decodable` machinery, for the scalar types and arrays
    /// of them; `nil` when `T` is another type or the node does not fit (the general path then
    /// throws the error).
    ///
    /// Metatype comparisons, not `is` casts: in this unspecialized generic code a cast calls into
    /// the runtime, a comparison is a load and a compare.
    static func fastValue<T>(_ type: T.Type, from node: OpaquePointer?) -> T? {
        // Each `unsafeBitCast` reinterprets a value as the very type the comparison before it
        // proved `T` to be.
        if type == String.self { return stringValue(node).map { unsafeBitCast($0, to: T.self) } }
        if type == Int.self { return integerValue(node, as: Int.self).map { unsafeBitCast($0, to: T.self) } }
        if type == Double.self { return doubleValue(node).map { unsafeBitCast($0, to: T.self) } }
        if type == Bool.self { return boolValue(node).map { unsafeBitCast($0, to: T.self) } }
        if type == Int64.self { return integerValue(node, as: Int64.self).map { unsafeBitCast($0, to: T.self) } }
        if type == ArrayTypes.doubles { return arrayValue(node, doubleValue).map { unsafeBitCast($0, to: T.self) } }
        if type == ArrayTypes.strings { return arrayValue(node, stringValue).map { unsafeBitCast($0, to: T.self) } }
        if type == ArrayTypes.ints {
            return arrayValue(node, { integerValue($0, as: Int.self) }).map { unsafeBitCast($0, to: T.self) }
        }
        if type == ArrayTypes.int64s {
            return arrayValue(node, { integerValue($0, as: Int64.self) }).map { unsafeBitCast($0, to: T.self) }
        }
        if type == ArrayTypes.bools { return arrayValue(node, boolValue).map { unsafeBitCast($0, to: T.self) } }
        return nil
    }
}
