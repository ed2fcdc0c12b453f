// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes an `Encodable` model as `application/x-www-form-urlencoded` text, with the options of
/// Alamofire's `URLEncodedFormEncoder` and AFNetworking's output (keys sorted, `a[b]=1`,
/// `a[]=1&a[]=2`, booleans as `1`/`0`) by default.
///
/// ```swift
/// struct Search: Encodable { var query: String; var tags: [String]; var page: Int?; var exact: Bool }
/// var encoder = URLEncodedFormEncoder()
/// encoder.keyEncoding = .convertToSnakeCase
/// try encoder.encode(Search(query: "a b", tags: ["x", "y"], page: nil, exact: true))
/// // "exact=1&query=a%20b&tags[]=x&tags[]=y" (brackets percent-encoded on the wire)
/// ```
///
/// The model is written by ``FormWriter``, so keys, brackets and escaping follow the same rules as
/// the form request serializer's.
public struct URLEncodedFormEncoder: Sendable {
    /// How arrays are written: `a[]=1` (``FormWriter/ArrayStyle/brackets``, the default),
    /// `a=1` (``FormWriter/ArrayStyle/noBrackets``) or `a[0]=1` (``FormWriter/ArrayStyle/indexed``).
    public typealias ArrayEncoding = FormWriter.ArrayStyle
    /// How booleans are written: `1`/`0` (the default) or `true`/`false`.
    public typealias BoolEncoding = FormWriter.BoolStyle
    /// How a space is written: `%20` (the default) or `+`.
    public typealias SpaceEncoding = FormWriter.SpaceEncoding

    /// How `Data` is written.
    public enum DataEncoding: Sendable {
        /// Base64 (the default).
        case base64
        /// `Data`'s own `Encodable` form: an array of its bytes (`a[]=1&a[]=2`).
        case deferredToData
        /// The text a closure returns.
        case custom(@Sendable (Data) throws -> String)
    }

    /// How `Date` is written.
    public enum DateEncoding: Sendable {
        /// `Date`'s own `Encodable` form: seconds since 2001-01-01 (the default, as Alamofire's).
        case deferredToDate
        /// Seconds since 1970.
        case secondsSince1970
        /// Milliseconds since 1970.
        case millisecondsSince1970
        /// ISO 8601 in UTC (`2026-11-25T21:02:20Z`, fractions when there are any).
        case iso8601
        /// The text a closure returns.
        case custom(@Sendable (Date) throws -> String)
    }

    /// How keys are written (the name this type has had since the form encoder came).
    public typealias KeyEncoding = Serializers.KeyEncoding

    /// How an optional that is `nil` is written.
    public enum NilEncoding: Sendable {
        /// Left out (the default, as synthesized `Codable` does).
        case dropKey
        /// The key with an empty value: `a=`.
        case dropValue
        /// The key with the text `null`: `a=null`.
        case null
    }

    /// How arrays are written.
    public var arrayEncoding: ArrayEncoding = .brackets
    /// How booleans are written.
    public var boolEncoding: BoolEncoding = .numeric
    /// How `Data` is written.
    public var dataEncoding: DataEncoding = .base64
    /// How `Date` is written.
    public var dateEncoding: DateEncoding = .deferredToDate
    /// How keys are written.
    public var keyEncoding: KeyEncoding = .useDefaultKeys
    /// How `nil` optionals are written.
    public var nilEncoding: NilEncoding = .dropKey
    /// How a space is written.
    public var spaceEncoding: SpaceEncoding = .percent20
    /// The charset whose bytes are percent-encoded; UTF-8 by default.
    public var charset: Charset = .utf8
    /// What to write for a character ``charset`` cannot: `&#N;` by default, as browsers do.
    public var unencodableCharacters: Charset.UnencodableCharacters = .characterReference
    /// Whether pairs are sorted by key (`true`, AFNetworking's and Alamofire's default) or keep
    /// the model's order.
    public var alphabetizeKeyValuePairs = true
    /// Values made available to `Encodable` implementations through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with Alamofire's defaults.
    public init() {}

    /// Encodes `value`, a model that encodes as keyed (a struct or a dictionary), as form text.
    ///
    /// - Throws: ``SatchelError``: ``SatchelError/Code/unencodableValue`` when the model is not
    ///   keyed or its `encode(to:)` throws, or a strategy closure throws.
    public func encode(_ value: some Encodable) throws(SatchelError) -> String {
        try writer.queryString(from: parameters(value))
    }

    /// Encodes `value` as the bytes of a form body.
    /// - Throws: As ``encode(_:)-(Encodable)``.
    public func encodeBody(_ value: some Encodable) throws(SatchelError) -> [UInt8] {
        try writer.write(parameters(value))
    }

    /// The model as the ``Value`` tree ``FormWriter`` writes, with every strategy applied.
    ///
    /// - Throws: As ``encode(_:)-(Encodable)``.
    public func parameters(_ value: some Encodable) throws(SatchelError) -> Value {
        var encoder = ValueEncoder()
        encoder.userInfo = userInfo
        encoder.encodesAbsentOptionals = {
            if case .dropKey = nilEncoding { return false }
            return true
        }()
        let tree = try encoder.encode(value)
        guard case .object = tree else {
            throw SatchelError(
                .unencodableValue, "a form holds keyed values: \(type(of: value)) encodes as \(tree.kindName)")
        }
        return try applyingStrategies(to: tree)
    }

    private var writer: FormWriter {
        FormWriter(
            options: FormWriter.Options(
                arrayStyle: arrayEncoding, boolStyle: boolEncoding, spaceEncoding: spaceEncoding,
                sortsKeys: alphabetizeKeyValuePairs, charset: charset, unencodableCharacters: unencodableCharacters))
    }

    private func applyingStrategies(to value: Value) throws(SatchelError) -> Value {
        switch value {
        case .object(let members):
            var result = ValueObject()
            for (key, member) in members {
                if member.isNull, case .dropKey = nilEncoding { continue }
                result[encodedKey(key)] = try applyingStrategies(to: member)
            }
            return .object(result)
        case .array(let elements):
            var result: [Value] = []
            result.reserveCapacity(elements.count)
            for element in elements { result.append(try applyingStrategies(to: element)) }
            return .array(result)
        case .null:
            switch nilEncoding {
            case .dropKey, .dropValue: return .string("")
            case .null: return .string("null")
            }
        case .date(let date): return try encoded(date)
        case .bytes(let bytes): return try encoded(Data(bytes))
        default: return value
        }
    }

    private func encodedKey(_ key: String) -> String { keyEncoding.key(key) }

    private func encoded(_ date: Date) throws(SatchelError) -> Value {
        switch dateEncoding {
        case .deferredToDate: return .double(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: return .double(date.timeIntervalSince1970)
        case .millisecondsSince1970: return .double((date.timeIntervalSince1970 * 1000).rounded())
        case .iso8601: return .string(ISO8601.string(from: date))
        case .custom(let write):
            do {
                return .string(try write(date))
            } catch {
                throw SatchelError(.unencodableValue, "the date encoding failed: \(error)", underlying: error)
            }
        }
    }

    private func encoded(_ data: Data) throws(SatchelError) -> Value {
        switch dataEncoding {
        case .base64: return .string(data.base64EncodedString())
        case .deferredToData: return .array(data.map { .integer(Int64($0)) })
        case .custom(let write):
            do {
                return .string(try write(data))
            } catch {
                throw SatchelError(.unencodableValue, "the data encoding failed: \(error)", underlying: error)
            }
        }
    }
}
