// SPDX-License-Identifier: Apache-2.0
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `Decodable` types from a ``Value`` tree (the `Codable` bridge in).
///
/// Numbers convert between kinds only when exact (`2.0` decodes as `Int` 2; `2.5` does not).
/// `Date` decodes from a date, an ISO-8601 string, or a number of seconds since 1970; `Data` and
/// `[UInt8]` from bytes or a base64 string; ``Value`` itself is returned as it is.
public struct ValueDecoder: Sendable {
    /// Values made available to `Decodable` implementations through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// How to read numbers, booleans, dates and bytes from strings, for a format that has only
    /// text (forms); `nil` (the default) reads them only from values of their own kind.
    package var textualScalars: TextualScalars?

    /// The rules of a text-only format: a scalar is read from a string's text, a string where an
    /// array is expected is an array of one, and an empty string is an absent optional.
    package struct TextualScalars: Sendable {
        /// A date from its text.
        package var date: @Sendable (String) throws -> Date
        /// Bytes from their text.
        package var bytes: @Sendable (String) throws -> [UInt8]

        package init(
            date: @escaping @Sendable (String) throws -> Date, bytes: @escaping @Sendable (String) throws -> [UInt8]
        ) {
            self.date = date
            self.bytes = bytes
        }
    }

    /// Creates a decoder.
    public init() {}

    /// Decodes a `T` from `value`.
    /// - Throws: ``SatchelError`` with ``SatchelError/Code/typeMismatch``,
    ///   ``SatchelError/Code/valueNotFound`` or ``SatchelError/Code/numberOutOfRange`` and the
    ///   key path of the offending value; errors thrown by `T` itself are wrapped as underlying.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws(SatchelError) -> T {
        let decoder = ValueDecodingNode(
            value: value, parent: nil, key: nil, userInfo: userInfo, textualScalars: textualScalars)
        return try SatchelError.decoding(type) { try decoder.decodeValue(type) }
    }
}

extension SatchelError {
    /// Converts a `DecodingError` thrown by a `Decodable` implementation.
    package init(decodingError: DecodingError) {
        switch decodingError {
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            self.init(
                .typeMismatch, context.debugDescription,
                keyPath: KeyPathComponent.render(codingPath: context.codingPath))
        case .valueNotFound(_, let context), .keyNotFound(_, let context):
            self.init(
                .valueNotFound, context.debugDescription,
                keyPath: KeyPathComponent.render(codingPath: context.codingPath))
        @unknown default:
            self.init(.typeMismatch, "\(decodingError)")
        }
        self.underlying = decodingError
    }
}

/// One position in the value tree being decoded.
final class ValueDecodingNode: Decoder, CodingPathNode {
    let value: Value
    let parent: ValueDecodingNode?
    let key: (any CodingKey)?
    let userInfoStorage: [CodingUserInfoKey: any Sendable]
    let textualScalars: ValueDecoder.TextualScalars?

    init(
        value: Value, parent: ValueDecodingNode?, key: (any CodingKey)?, userInfo: [CodingUserInfoKey: any Sendable],
        textualScalars: ValueDecoder.TextualScalars?
    ) {
        self.value = value
        self.parent = parent
        self.key = key
        self.userInfoStorage = userInfo
        self.textualScalars = textualScalars
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    func mismatch(_ expected: String, _ found: Value, key: (any CodingKey)? = nil) -> SatchelError {
        let code: SatchelError.Code = found.isNull ? .valueNotFound : .typeMismatch
        return SatchelError(code, "expected \(expected), found \(found.kindName)", keyPath: path(appending: key))
    }

    func child(_ value: Value, key: any CodingKey) -> ValueDecodingNode {
        ValueDecodingNode(
            value: value, parent: self, key: key, userInfo: userInfoStorage, textualScalars: textualScalars)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object", value) }
        return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements): return UnkeyedValueDecodingContainer(decoder: self, elements: elements)
        case .string(let text) where textualScalars != nil:
            // One value of a repeated key (`a=1` for `a=1&a=2`); an empty one is no element.
            return UnkeyedValueDecodingContainer(decoder: self, elements: text.isEmpty ? [] : [value])
        default: throw mismatch("an array", value)
        }
    }

    /// The error for an empty text where a `expected` scalar is required (a text-only format).
    func emptyText(_ expected: String, key: (any CodingKey)?) -> SatchelError {
        SatchelError(.valueNotFound, "expected \(expected), found an empty value", keyPath: path(appending: key))
    }

    /// Whether `value` stands for no value: null, or in a text-only format an empty string.
    func isAbsent(_ value: Value) -> Bool {
        if value.isNull { return true }
        if textualScalars != nil, case .string(let text) = value { return text.isEmpty }
        return false
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes `type` from this node's value, handling the types with a native representation.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Value.self { return value as! T }
        // A payload decodes as itself (a spilled multipart part as its TemporaryFile, …). `is`
        // and `as!` rather than `as?`, whose `Optional<T>` costs a run-time metadata look-up on
        // every call (the compiler hoists it out of the branch).
        if case .payload(let payload) = value, payload is T { return payload as! T }
        if type == Date.self { return try unboxDate(value, key: nil) as! T }
        if type == Data.self { return Data(try unboxBytes(value, key: nil)) as! T }
        if type == [UInt8].self, case .bytes(let bytes) = value { return bytes as! T }
        if type == URL.self {
            guard case .string(let text) = value, let url = URL(string: text) else {
                throw mismatch("a URL string", value)
            }
            return url as! T
        }
        return try T(from: self)
    }

    // MARK: Unboxing scalars (shared by all containers)

    func unboxBool(_ value: Value, key: (any CodingKey)?) throws -> Bool {
        if textualScalars != nil, case .string(let text) = value {
            if text.isEmpty { throw emptyText("a bool", key: key) }
            guard let flag = TextualScalar.bool(text) else {
                throw SatchelError(
                    .typeMismatch, "expected a bool (\(TextualScalar.boolWords)), found \"\(text)\"",
                    keyPath: path(appending: key))
            }
            return flag
        }
        guard case .bool(let flag) = value else { throw mismatch("a bool", value, key: key) }
        return flag
    }

    func unboxString(_ value: Value, key: (any CodingKey)?) throws -> String {
        guard case .string(let string) = value else { throw mismatch("a string", value, key: key) }
        return string
    }

    func unboxDouble(_ value: Value, key: (any CodingKey)?) throws -> Double {
        if textualScalars != nil, case .string(let text) = value {
            if text.isEmpty { throw emptyText("a number", key: key) }
            guard let number = TextualScalar.double(text) else {
                throw SatchelError(
                    .typeMismatch, "expected a number, found \"\(text)\"", keyPath: path(appending: key))
            }
            return number
        }
        guard let number = value.doubleValue else { throw mismatch("a number", value, key: key) }
        return number
    }

    func unboxFloat(_ value: Value, key: (any CodingKey)?) throws -> Float {
        let number = try unboxDouble(value, key: key)
        let single = Float(number)
        if number.isFinite && !single.isFinite {
            throw SatchelError(.numberOutOfRange, "\(number) does not fit in Float", keyPath: path(appending: key))
        }
        return single
    }

    func unboxInteger<I: FixedWidthInteger>(_ value: Value, as type: I.Type, key: (any CodingKey)?) throws -> I {
        let result: I?
        switch value {
        case .integer, .unsignedInteger, .double: result = ValueDecoder.integer(value, as: I.self)
        case .string(let text) where textualScalars != nil:
            if text.isEmpty { throw emptyText("an integer", key: key) }
            switch TextualScalar.integer(text, as: I.self) {
            case .value(let number): result = number
            case .outOfRange: result = nil
            case .notAnInteger:
                throw SatchelError(
                    .typeMismatch, "expected an integer, found \"\(text)\"", keyPath: path(appending: key))
            }
        default: throw mismatch("an integer", value, key: key)
        }
        guard let result else {
            throw SatchelError(.numberOutOfRange, "\(value) does not fit in \(I.self)", keyPath: path(appending: key))
        }
        return result
    }

    func unboxDate(_ value: Value, key: (any CodingKey)?) throws -> Date {
        if let textualScalars, case .string(let text) = value {
            if text.isEmpty { throw emptyText("a date", key: key) }
            do {
                return try textualScalars.date(text)
            } catch {
                throw SatchelError(
                    .typeMismatch, "\"\(text)\" is not a date: \(error)", keyPath: path(appending: key))
            }
        }
        switch value {
        case .date(let date): return date
        case .string(let text):
            guard let date = ISO8601.date(from: text) else {
                throw SatchelError(.typeMismatch, "\"\(text)\" is not an ISO-8601 date", keyPath: path(appending: key))
            }
            return date
        case .integer, .unsignedInteger, .double:
            return Date(timeIntervalSince1970: value.doubleValue ?? 0)
        default:
            throw mismatch("a date", value, key: key)
        }
    }

    func unboxBytes(_ value: Value, key: (any CodingKey)?) throws -> [UInt8] {
        if let textualScalars, case .string(let text) = value {
            do {
                return try textualScalars.bytes(text)
            } catch {
                throw SatchelError(.typeMismatch, "\"\(text)\" is not data: \(error)", keyPath: path(appending: key))
            }
        }
        switch value {
        case .bytes(let bytes): return bytes
        case .string(let text):
            guard let data = Data(base64Encoded: text) else {
                throw SatchelError(.typeMismatch, "string is not base64", keyPath: path(appending: key))
            }
            return Array(data)
        default:
            throw mismatch("bytes", value, key: key)
        }
    }

    /// Metatype comparisons and `unsafeBitCast`s to the type each comparison proved `T` to be
    /// (`case is Bool.Type` and `as! T` are run-time casts).
    func decode<T: Decodable>(_ type: T.Type, from value: Value, key: any CodingKey) throws -> T {
        if type == Bool.self { return unsafeBitCast(try unboxBool(value, key: key), to: T.self) }
        if type == String.self { return unsafeBitCast(try unboxString(value, key: key), to: T.self) }
        if type == Int.self { return unsafeBitCast(try unboxInteger(value, as: Int.self, key: key), to: T.self) }
        if type == Double.self { return unsafeBitCast(try unboxDouble(value, key: key), to: T.self) }
        if type == Int64.self { return unsafeBitCast(try unboxInteger(value, as: Int64.self, key: key), to: T.self) }
        return try child(value, key: key).decodeValue(type)
    }
}

extension ValueDecodingNode: SingleValueDecodingContainer {
    func decodeNil() -> Bool { isAbsent(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(value, key: nil) }
    func decode(_ type: String.Type) throws -> String { try unboxString(value, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(value, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(value, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unboxInteger(value, as: type, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(value, as: type, key: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

extension ValueDecoder {
    /// Whether ``scalar(_:from:)`` converts `type`: `String`, `Bool`, `Double`, `Int`, `Int64`.
    package static func convertsScalar<T>(_ type: T.Type) -> Bool {
        type == String.self || type == Int.self || type == Double.self || type == Bool.self || type == Int64.self
    }

    /// `value` as `T`, for the types ``convertsScalar(_:)`` names, exactly as a decoder without
    /// text rules converts it; `nil` where that decoder throws (the caller then takes the general
    /// path, which throws the same error). Typed decoders of formats whose scalars are values
    /// (property lists) read their common scalars through it without a decoding node.
    ///
    /// Metatype comparisons and `unsafeBitCast`s to the type each comparison proved `T` to be.
    package static func scalar<T>(_ type: T.Type, from value: Value) -> T? {
        if type == String.self {
            guard case .string(let text) = value else { return nil }
            return unsafeBitCast(text, to: T.self)
        }
        if type == Bool.self {
            guard case .bool(let flag) = value else { return nil }
            return unsafeBitCast(flag, to: T.self)
        }
        if type == Double.self { return value.doubleValue.map { unsafeBitCast($0, to: T.self) } }
        if type == Int.self { return integer(value, as: Int.self).map { unsafeBitCast($0, to: T.self) } }
        if type == Int64.self { return integer(value, as: Int64.self).map { unsafeBitCast($0, to: T.self) } }
        return nil
    }

    /// `value` as an `I` when it is a number `I` holds exactly (``ValueDecodingNode``'s rule).
    static func integer<I: FixedWidthInteger>(_ value: Value, as type: I.Type) -> I? {
        switch value {
        case .integer(let number): I(exactly: number)
        case .unsignedInteger(let number): I(exactly: number)
        case .double(let number): number.isFinite ? I(exactly: number) : nil
        default: nil
        }
    }
}
