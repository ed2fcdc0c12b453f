// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes `Encodable` models as JSON text, with the strategies of Foundation's `JSONEncoder`.
///
/// ```swift
/// var encoder = JSONModelEncoder()
/// encoder.keyEncoding = .convertToSnakeCase
/// encoder.dateEncoding = .secondsSince1970
/// let body = try encoder.encode(user)
/// ```
///
/// The text is written as the model encodes itself, without a tree in between. Members are
/// written in the order the model encodes them (sorted with ``JSONWriter/Options/sortedKeys``);
/// integers are exact to 64 bits signed and unsigned, `Decimal` is written as its digits, and a
/// ``Value`` member as ``JSONWriter`` writes it.
///
/// A model that writes to a container after moving on from it (a nested container filled after
/// its parent's next member) cannot be written as it goes: it is encoded again into a ``Value``
/// with ``ValueEncoder`` and written from that, with the same strategies. A key encoded twice in
/// one container is written twice (synthesized `Encodable` never does that).
public struct JSONModelEncoder: Sendable {
    /// How a `Date` is written.
    public enum DateEncoding: Sendable {
        /// ISO 8601 text in UTC, with milliseconds when there are any (the default, as
        /// ``JSONWriter`` writes dates).
        case iso8601
        /// `Date`'s own `Encodable` form: seconds since 2001-01-01.
        case deferredToDate
        /// Seconds since 1970.
        case secondsSince1970
        /// Milliseconds since 1970, rounded to whole milliseconds.
        case millisecondsSince1970
        /// The string a formatter returns, such as a `DateFormatter`'s `string(from:)`.
        case formatted(@Sendable (Date) -> String)
        /// Whatever a closure encodes into the value's encoder.
        case custom(@Sendable (Date, any Encoder) throws -> Void)

        /// The date as this strategy writes it (a string or a number), for both the streaming
        /// and the tree path; `nil` for `.custom`, which encodes into an encoder.
        func scalar(of date: Date) -> Value? {
            switch self {
            case .iso8601: .string(ISO8601.string(from: date))
            case .deferredToDate: .double(date.timeIntervalSinceReferenceDate)
            case .secondsSince1970: .double(date.timeIntervalSince1970)
            case .millisecondsSince1970: .double((date.timeIntervalSince1970 * 1000).rounded())
            case .formatted(let format): .string(format(date))
            case .custom: nil
            }
        }
    }

    /// How `Data` is written.
    public enum DataEncoding: Sendable {
        /// Base64 (the default).
        case base64
        /// `Data`'s own `Encodable` form: an array of byte values.
        case deferredToData
        /// Whatever a closure encodes into the value's encoder.
        case custom(@Sendable (Data, any Encoder) throws -> Void)
    }

    /// How NaN and the infinities are written; JSON numbers cannot express them.
    public enum NonConformingFloatEncoding: Sendable, Hashable {
        /// Throw ``SatchelError/Code/unencodableValue`` naming the key path (the default).
        case `throw`
        /// As these strings.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How coding keys are written as member names (dictionary keys included, as Foundation does).
    public var keyEncoding: KeyEncoding = .useDefaultKeys
    /// How dates are written.
    public var dateEncoding: DateEncoding = .iso8601
    /// How data is written.
    public var dataEncoding: DataEncoding = .base64
    /// How NaN and the infinities are written.
    public var nonConformingFloatEncoding: NonConformingFloatEncoding = .throw
    /// Pretty printing, sorted keys, escaping of `/`, the deepest nesting
    /// (``JSONWriter/Options/nonFiniteNumbers`` is replaced by ``nonConformingFloatEncoding``).
    public var writingOptions: JSONWriter.Options
    /// Values made available to `Encodable` implementations through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder.
    public init(writingOptions: JSONWriter.Options = JSONWriter.Options()) {
        self.writingOptions = writingOptions
    }

    /// Returns the JSON text of `value`.
    ///
    /// - Throws: ``SatchelError``: ``SatchelError/Code/unencodableValue`` for a value that
    ///   encodes nothing or a non-finite number (with ``NonConformingFloatEncoding/throw``),
    ///   ``SatchelError/Code/limitExceeded`` past ``JSONWriter/Options/maxDepth``, each with its
    ///   key path; an error thrown by the model's `encode(to:)` as underlying.
    /// - Complexity: O(n) in the size of the text, plus the model's work.
    public func encode<T: Encodable>(_ value: T) throws(SatchelError) -> [UInt8] {
        let writer = JSONStreamWriter(strategies: Strategies(self))
        // Open encoders hold the writer that lists them: a model that fails half-way leaves
        // some listed.
        defer { writer.open.removeAll() }
        let root = JSONStreamEncoder(writer: writer, parent: nil, key: nil, depth: 0)
        do {
            // `encode(to:)` is the model's, called through `Encoder`, and throws any error.
            try root.encode(value)
            if !writer.abandoned { return writer.bytes }
        } catch let error as SatchelError where !writer.abandoned {
            throw error
        } catch  where !writer.abandoned {
            throw SatchelError(.unencodableValue, "\(T.self) could not be encoded", underlying: error)
        } catch {
            // Written out of order: the tree path below.
        }
        return try encodeThroughValue(value)
    }

    /// The tree path, for models that write out of order: ``ValueEncoder``, then the strategies
    /// applied to the tree, then ``JSONWriter``.
    private func encodeThroughValue<T: Encodable>(_ value: T) throws(SatchelError) -> [UInt8] {
        var encoder = ValueEncoder()
        encoder.userInfo = userInfo
        let tree = try applyStrategies(to: encoder.encode(value))
        var options = writingOptions
        options.nonFiniteNumbers = .throw
        return try JSONWriter(options: options).write(tree)
    }

    private func applyStrategies(to value: Value) throws(SatchelError) -> Value {
        switch value {
        case .object(let members):
            var converted = ValueObject(minimumCapacity: members.count)
            for (name, member) in members { converted[keyEncoding.key(name)] = try applyStrategies(to: member) }
            return .object(converted)
        case .array(let elements):
            return .array(try elements.map(applyStrategies))
        case .date(let date):
            if let scalar = dateEncoding.scalar(of: date) { return scalar }
            guard case .custom(let encode) = dateEncoding else { return value }
            return try applyStrategies(
                to: ValueEncoder().encode(JSONStreamEncoder.StrategyValue(value: date, encode: encode)))
        case .bytes(let bytes):
            switch dataEncoding {
            case .base64: return value
            case .deferredToData: return .array(bytes.map { .integer(Int64($0)) })
            case .custom(let encode):
                return try applyStrategies(
                    to: ValueEncoder().encode(JSONStreamEncoder.StrategyValue(value: Data(bytes), encode: encode)))
            }
        case .double(let number) where !number.isFinite:
            guard case .convertToString(let positive, let negative, let nan) = nonConformingFloatEncoding else {
                return value
            }
            return .string(number.isNaN ? nan : number > 0 ? positive : negative)
        default:
            return value
        }
    }

    /// What the encoders of one encode share.
    struct Strategies {
        let keyEncoding: KeyEncoding
        let dateEncoding: DateEncoding
        let dataEncoding: DataEncoding
        let nonConformingFloatEncoding: NonConformingFloatEncoding
        let prettyPrinted: Bool
        let sortedKeys: Bool
        let escapesSlashes: Bool
        let maxDepth: Int
        let userInfo: [CodingUserInfoKey: any Sendable]

        init(_ encoder: JSONModelEncoder) {
            keyEncoding = encoder.keyEncoding
            dateEncoding = encoder.dateEncoding
            dataEncoding = encoder.dataEncoding
            nonConformingFloatEncoding = encoder.nonConformingFloatEncoding
            prettyPrinted = encoder.writingOptions.prettyPrinted
            sortedKeys = encoder.writingOptions.sortedKeys
            escapesSlashes = encoder.writingOptions.escapesSlashes
            maxDepth = encoder.writingOptions.maxDepth
            userInfo = encoder.userInfo
        }
    }
}
