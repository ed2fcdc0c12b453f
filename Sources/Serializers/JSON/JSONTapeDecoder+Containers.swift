// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

struct KeyedJSONTapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONTapeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    private var document: JSONTapeDocument { decoder.document }

    /// The members' keys in document order, each once; with duplicate names the last member's
    /// value decides whether a null member is left out (``JSONReadingOptions/removesKeysWithNullValues``).
    var allKeys: [Key] {
        var names: [String] = []
        var lastValues: [String: Int] = [:]
        var name = decoder.index + 1
        var ordinal = 0
        let end = Int(document.entries[decoder.index].next)
        while name < end {
            let text = memberName(name, ordinal: ordinal)
            if lastValues.updateValue(name + 1, forKey: text) == nil { names.append(text) }
            name = Int(document.entries[name + 1].next)
            ordinal += 1
        }
        return names.compactMap { text in
            if document.options.removesKeysWithNullValues, let value = lastValues[text],
                document.entries[value].kind == .null
            {
                return nil
            }
            return Key(stringValue: text)
        }
    }

    /// The name of the member whose name entry is `name`, after the key decoding strategy.
    private func memberName(_ name: Int, ordinal: Int) -> String {
        if let converted = convertedNames() { return converted[ordinal] }
        return document.string(name) ?? ""
    }

    /// The members' names after a key decoding strategy other than `.useDefaultKeys`, made once.
    private func convertedNames() -> [String]? {
        if case .useDefaultKeys = document.strategies.keyDecoding { return nil }
        if let names = decoder.convertedNames { return names }
        var names: [String] = []
        var name = decoder.index + 1
        let end = Int(document.entries[decoder.index].next)
        while name < end {
            names.append(document.strategies.keyDecoding.key(document.string(name) ?? ""))
            name = Int(document.entries[name + 1].next)
        }
        decoder.convertedNames = names
        return names
    }

    /// The entry of the member's value, or `nil` when there is no such member. With duplicate
    /// names the last member wins, as in the ``Value`` tree.
    private func find(_ key: Key) -> Int? { find(name: key.stringValue) }

    private func find(name: String) -> Int? {
        let entries = document.entries
        let found: Int?
        if let converted = convertedNames() {
            found = findConverted(name, in: converted)
        } else {
            var name = name
            found = name.withUTF8 { findInText($0) }
        }
        guard let found else { return nil }
        if document.options.removesKeysWithNullValues && entries[found].kind == .null { return nil }
        return found
    }

    /// The search by the names' bytes in the text. It starts after the member found last and wraps
    /// around, so keys read in document order are found at once; it then looks on for a later
    /// duplicate.
    private func findInText(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        let entries = document.entries
        let first = decoder.index + 1
        let end = Int(entries[decoder.index].next)
        let start = decoder.cursor < end ? decoder.cursor : first
        var hit: Int?
        var limit = end
        var entry = start
        while entry < end {
            if document.nameEquals(entries[entry], name) {
                hit = entry
                break
            }
            entry = Int(entries[entry + 1].next)
        }
        if hit == nil {
            limit = start
            entry = first
            while entry < start {
                if document.nameEquals(entries[entry], name) {
                    hit = entry
                    break
                }
                entry = Int(entries[entry + 1].next)
            }
        }
        guard var last = hit else { return nil }
        entry = Int(entries[last + 1].next)
        while entry < limit {
            if document.nameEquals(entries[entry], name) { last = entry }
            entry = Int(entries[entry + 1].next)
        }
        decoder.cursor = Int(entries[last + 1].next)
        return last + 1
    }

    /// The search by converted names: every member, the last match wins.
    private func findConverted(_ name: String, in converted: [String]) -> Int? {
        var found: Int?
        var entry = decoder.index + 1
        for convertedName in converted {
            if convertedName == name { found = entry + 1 }
            entry = Int(document.entries[entry + 1].next)
        }
        return found
    }

    private func member(_ key: Key) throws -> Int {
        guard let entry = find(key) else {
            throw SatchelError(
                .valueNotFound, "no member \"\(key.stringValue)\"", offset: Int(document.entries[decoder.index].start),
                keyPath: decoder.path(appending: key))
        }
        return entry
    }

    /// The member's value, or `nil` when it is absent or null: one look-up where the standard
    /// library's `decodeIfPresent` makes three (`contains`, `decodeNil`, `decode`).
    private func presentMember(_ key: Key) -> Int? {
        guard let entry = find(key), document.entries[entry].kind != .null else { return nil }
        return entry
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { document.entries[try member(key)].kind == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.unboxBool(member(key), key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unboxString(member(key), key: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxDouble(member(key), key: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.unboxFloat(member(key), key: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    // Inlined into each concrete `decode`, so that `I` is known there: a generic helper in this
    // generic container would ask the runtime for `I?`'s metadata on every call.
    @inline(__always)
    private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
        try decoder.unboxInteger(member(key), as: I.self, key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, at: member(key), key: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let entry = presentMember(key) else { return nil }
        return try decoder.decode(type, at: entry, key: key)
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

    // Inlined for the same reason as `integer(_:)`.
    @inline(__always)
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
        guard let entry = find(name: "super") else {
            throw SatchelError(
                .valueNotFound, "no member \"super\"",
                keyPath: decoder.path(appending: ValueCodingKey(stringValue: "super")))
        }
        return decoder.child(entry, key: ValueCodingKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder.child(member(key), key: key)
    }

}

struct UnkeyedJSONTapeContainer: UnkeyedDecodingContainer {
    let decoder: JSONTapeDecoder
    /// The entry of the next element.
    var position: Int
    var currentIndex = 0
    let count: Int?

    init(decoder: JSONTapeDecoder) {
        self.decoder = decoder
        let document = decoder.document
        position = decoder.index + 1
        if document.options.removesKeysWithNullValues {
            var nonNull = 0
            var entry = position
            while entry < Int(document.entries[decoder.index].next) {
                if document.entries[entry].kind != .null { nonNull += 1 }
                entry = Int(document.entries[entry].next)
            }
            count = nonNull
            skipNulls()
        } else {
            count = Int(document.entries[decoder.index].length)
        }
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func skipNulls() {
        guard decoder.document.options.removesKeysWithNullValues else { return }
        let end = Int(decoder.document.entries[decoder.index].next)
        while position < end && decoder.document.entries[position].kind == .null { position += 1 }
    }

    private mutating func next() throws -> (Int, ValueCodingKey) {
        let key = ValueCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw SatchelError(
                .valueNotFound, "the array has only \(count ?? 0) elements", keyPath: decoder.path(appending: key))
        }
        let entry = position
        position = Int(decoder.document.entries[entry].next)
        currentIndex += 1
        skipNulls()
        return (entry, key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.document.entries[position].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (entry, key) = try next()
        return try decoder.unboxBool(entry, key: key)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (entry, key) = try next()
        return try decoder.unboxString(entry, key: key)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (entry, key) = try next()
        return try decoder.unboxDouble(entry, key: key)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (entry, key) = try next()
        return try decoder.unboxFloat(entry, key: key)
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    // Inlined for the same reason as `integer(_:)`.
    @inline(__always)
    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        let (entry, key) = try next()
        return try decoder.unboxInteger(entry, as: I.self, key: key)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (entry, key) = try next()
        return try decoder.decode(type, at: entry, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (entry, key) = try next()
        return try decoder.child(entry, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (entry, key) = try next()
        return try decoder.child(entry, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (entry, key) = try next()
        return decoder.child(entry, key: key)
    }
}
