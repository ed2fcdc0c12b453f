import CSatchelJSONC
import SerializerRegistry

struct KeyedJSONNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONNodeDecoder
    let object: OpaquePointer

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        var keys: [Key] = []
        var entry = lh_table_head(json_object_get_object(object))
        while let current = entry {
            entry = lh_entry_next(current)
            guard let name = lh_entry_k(current) else { continue }
            if let key = Key(stringValue: String(cString: name.assumingMemoryBound(to: CChar.self))) {
                keys.append(key)
            }
        }
        return keys
    }

    /// The member's node (nil for JSON null) and whether the member exists.
    private func lookup(_ key: Key) -> (OpaquePointer?, Bool) {
        var member: OpaquePointer?
        let found = key.stringValue.withCString { json_object_object_get_ex(object, $0, &member) != 0 }
        return (member, found)
    }

    private func member(_ key: Key) throws -> OpaquePointer? {
        let (member, found) = lookup(key)
        guard found else {
            throw SatchelError(
                .valueNotFound, "no member \"\(key.stringValue)\"", keyPath: decoder.path(appending: key))
        }
        return member
    }

    func contains(_ key: Key) -> Bool { lookup(key).1 }
    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == nil }
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
        guard let member = presentMember(key) else { return nil }
        return try decoder.decode(type, from: member, key: key)
    }

    /// The member's node, or `nil` when it is absent or JSON null: one look-up where the
    /// standard library's `decodeIfPresent` for the scalar types makes three (`contains`,
    /// `decodeNil`, `decode`), with the same result.
    private func presentMember(_ key: Key) -> OpaquePointer? {
        let (member, found) = lookup(key)
        return found ? member : nil
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentMember(key).map { try decoder.unboxBool($0, key: key) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentMember(key).map { try decoder.unboxString($0, key: key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentMember(key).map { try decoder.unboxDouble($0, key: key) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try presentMember(key).map { try decoder.unboxFloat($0, key: key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentInteger(key) }

    private func presentInteger<I: FixedWidthInteger>(_ key: Key) throws -> I? {
        try presentMember(key).map { try decoder.unboxInteger($0, as: I.self, key: key) }
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
        let key = SuperKey()
        var member: OpaquePointer?
        _ = json_object_object_get_ex(object, "super", &member)
        return decoder.child(member, key: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(lookup(key).0, key: key)
    }

    private struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}

struct UnkeyedJSONNodeContainer: UnkeyedDecodingContainer {
    let decoder: JSONNodeDecoder
    let array: OpaquePointer
    let count: Int?
    var currentIndex = 0

    init(decoder: JSONNodeDecoder, array: OpaquePointer) {
        self.decoder = decoder
        self.array = array
        self.count = json_object_array_length(array)
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    private mutating func next() throws -> (OpaquePointer?, IndexKey) {
        let key = IndexKey(currentIndex)
        guard !isAtEnd else {
            throw SatchelError(
                .valueNotFound, "the array has only \(count ?? 0) elements", keyPath: decoder.path(appending: key))
        }
        defer { currentIndex += 1 }
        return (json_object_array_get_idx(array, currentIndex), key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, json_object_array_get_idx(array, currentIndex) == nil else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (node, key) = try next(); return try decoder.unboxBool(node, key: key)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (node, key) = try next(); return try decoder.unboxString(node, key: key)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (node, key) = try next(); return try decoder.unboxDouble(node, key: key)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (node, key) = try next(); return try decoder.unboxFloat(node, key: key)
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let (node, key) = try next(); return try decoder.unboxInteger(node, as: type, key: key)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, key) = try next()
        return try decoder.decode(type, from: node, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, key) = try next()
        return try decoder.child(node, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, key) = try next()
        return try decoder.child(node, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, key) = try next()
        return decoder.child(node, key: key)
    }
}
