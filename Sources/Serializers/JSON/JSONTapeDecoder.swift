// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `Decodable` types from a ``JSONTapeDocument``: the `Decoder` behind
/// ``JSONModelDecoder``.
///
/// One decoder per object or array a model opens (scalars are read in place); member look-ups
/// compare the names' bytes in the text, starting where the previous look-up ended, so a model
/// that reads its keys in document order finds each at once. Numbers convert only when exact
/// (`2.0` is the `Int` 2, `2.5` is not), as ``ValueDecoder`` converts them.
final class JSONTapeDecoder: Decoder, CodingPathNode {
    /// The text, its tape and the decode's strategies, shared by every decoder of one decode.
    let document: JSONTapeDocument
    /// The entry this decoder reads.
    let index: Int
    let parent: JSONTapeDecoder?
    let key: (any CodingKey)?
    /// Where the next member look-up of a keyed container starts: the entry of a member name.
    var cursor = 0
    /// The members' names after the key decoding strategy, made once for a keyed container when
    /// the strategy is not `.useDefaultKeys`.
    var convertedNames: [String]?

    init(document: JSONTapeDocument, index: Int, parent: JSONTapeDecoder?, key: (any CodingKey)?) {
        self.document = document
        self.index = index
        self.parent = parent
        self.key = key
    }

    var userInfo: [CodingUserInfoKey: Any] { document.strategies.userInfo }

    func child(_ index: Int, key: any CodingKey) -> JSONTapeDecoder {
        JSONTapeDecoder(document: document, index: index, parent: self, key: key)
    }

    // MARK: Errors

    func mismatch(_ expected: String, at index: Int, key: (any CodingKey)?) -> SatchelError {
        let found = document.kindName(index)
        let code: SatchelError.Code = found == "null" ? .valueNotFound : .typeMismatch
        return failure(code, "expected \(expected), found \(found)", at: index, key: key)
    }

    func failure(_ code: SatchelError.Code, _ message: String, at index: Int, key: (any CodingKey)?) -> SatchelError {
        var start = Int(document.entries[index].start)
        if document.entries[index].kind == .string { start -= 1 }  // the opening quote
        return SatchelError(code, message, offset: start, keyPath: path(appending: key))
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let entry = document.entries[index]
        guard entry.kind == .object else { throw mismatch("an object", at: index, key: nil) }
        if Int(entry.length) > document.maxPairs, case let count = document.distinctMemberCount(index),
            count > document.maxPairs
        {
            throw SatchelError.limitExceeded(
                "maxPairs", document.maxPairs, "an object with \(count) members", keyPath: path(appending: nil))
        }
        cursor = index + 1
        return KeyedDecodingContainer(KeyedJSONTapeContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard document.entries[index].kind == .array else { throw mismatch("an array", at: index, key: nil) }
        return UnkeyedJSONTapeContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Values

    /// Decodes `type` from this decoder's entry.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        guard let form = Self.ownForm(of: type) else { return try T(from: self) }
        return try decode(type, form, at: index, key: nil) { try T(from: self) }
    }

    /// Decodes `type` from `entry`, a member or element of this decoder's value: scalars and
    /// arrays of them in place, other types through a child decoder.
    func decode<T: Decodable>(_ type: T.Type, at entry: Int, key: any CodingKey) throws -> T {
        guard let form = Self.ownForm(of: type) else { return try T(from: child(entry, key: key)) }
        return try decode(type, form, at: entry, key: key) { try T(from: child(entry, key: key)) }
    }

    // MARK: Scalars

    func unboxBool(_ entry: Int, key: (any CodingKey)?) throws -> Bool {
        guard let value = document.bool(entry) else { throw mismatch("a bool", at: entry, key: key) }
        return value
    }

    func unboxString(_ entry: Int, key: (any CodingKey)?) throws -> String {
        guard let value = document.string(entry) else { throw mismatch("a string", at: entry, key: key) }
        return value
    }

    func unboxDouble(_ entry: Int, key: (any CodingKey)?) throws -> Double {
        if let number = document.double(entry) {
            guard number.isFinite else {
                throw failure(
                    .numberOutOfRange, "the number \(document.numberText(entry)) is outside the range of Double",
                    at: entry, key: key)
            }
            return number
        }
        if let text = document.string(entry), let number = document.strategies.nonConformingFloat(text) {
            return number
        }
        throw mismatch("a number", at: entry, key: key)
    }

    func unboxFloat(_ entry: Int, key: (any CodingKey)?) throws -> Float {
        let number = try unboxDouble(entry, key: key)
        let single = Float(number)
        guard single.isFinite || !number.isFinite else {
            throw failure(.numberOutOfRange, "\(number) does not fit in Float", at: entry, key: key)
        }
        return single
    }

    func unboxInteger<I: FixedWidthInteger>(_ entry: Int, as type: I.Type, key: (any CodingKey)?) throws -> I {
        if let value = document.integer(entry, as: type) { return value }
        guard document.entries[entry].kind == .number, !document.isBigIntegerString(document.entries[entry]) else {
            throw mismatch("an integer", at: entry, key: key)
        }
        throw failure(.numberOutOfRange, "\(document.numberText(entry)) does not fit in \(I.self)", at: entry, key: key)
    }

    func date(at entry: Int, key: (any CodingKey)?) throws -> Date {
        switch document.strategies.dateDecoding {
        case .iso8601OrSecondsSince1970:
            if document.entries[entry].kind == .number {
                return Date(timeIntervalSince1970: try unboxDouble(entry, key: key))
            }
            return try isoDate(at: entry, key: key)
        case .iso8601:
            return try isoDate(at: entry, key: key)
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(entry, key: key))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unboxDouble(entry, key: key) / 1000)
        case .deferredToDate:
            return Date(timeIntervalSinceReferenceDate: try unboxDouble(entry, key: key))
        case .formatted(let parse):
            let text = try unboxString(entry, key: key)
            guard let date = parse(text) else {
                throw failure(.typeMismatch, "\"\(text)\" is not a date in the expected format", at: entry, key: key)
            }
            return date
        case .custom(let decode):
            return try decodeWithStrategy(at: entry, key: key, decode)
        }
    }

    private func isoDate(at entry: Int, key: (any CodingKey)?) throws -> Date {
        let text = try unboxString(entry, key: key)
        guard let date = ISO8601.date(from: text) else {
            throw failure(.typeMismatch, "\"\(text)\" is not an ISO-8601 date", at: entry, key: key)
        }
        return date
    }

    func data(at entry: Int, key: (any CodingKey)?) throws -> Data {
        switch document.strategies.dataDecoding {
        case .base64:
            let text = try unboxString(entry, key: key)
            guard let data = Data(base64Encoded: text) else {
                throw failure(.typeMismatch, "the string is not base64", at: entry, key: key)
            }
            return data
        case .deferredToData:
            let decoder = key.map { child(entry, key: $0) } ?? self
            return Data(try [UInt8](from: decoder))
        case .custom(let decode):
            return try decodeWithStrategy(at: entry, key: key, decode)
        }
    }

    /// Runs a custom strategy with a decoder at `entry`, placing its errors under the key path.
    private func decodeWithStrategy<T>(
        at entry: Int, key: (any CodingKey)?, _ decode: (any Decoder) throws -> T
    ) throws -> T {
        let decoder = key.map { child(entry, key: $0) } ?? self
        return try SatchelError.decoding(T.self) { try decode(decoder) }
    }

    func value(at entry: Int, key: (any CodingKey)?) throws -> Value {
        do {
            return try document.value(entry)
        } catch {
            throw error.underKeyPath(path(appending: key))
        }
    }
}

extension JSONTapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { document.entries[index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(index, key: nil) }
    func decode(_ type: String.Type) throws -> String { try unboxString(index, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(index, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(index, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(index, as: type, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(index, as: type, key: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}
