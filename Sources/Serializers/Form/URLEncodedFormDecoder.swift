import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes a `Decodable` model from `application/x-www-form-urlencoded` text: the reverse of
/// ``URLEncodedFormEncoder``, reading what browsers, AFNetworking, Alamofire, Go and PHP send.
///
/// ```swift
/// struct Search: Decodable { var query: String; var tags: [String]; var page: Int?; var exact: Bool }
/// let search = try URLEncodedFormDecoder().decode(Search.self, from: "query=a+b&tags[]=x&tags[]=y&exact=on")
/// ```
///
/// Everything in a form is text, so numbers, booleans, dates and data are read from it:
/// - integers from decimal digits with an optional sign (out of range is
///   ``SatchelError/Code/numberOutOfRange``), floating point from Swift's `Double` syntax;
/// - booleans from `1`/`0`, `true`/`false`, `on`/`off` (an HTML checkbox), `yes`/`no`, any case;
/// - arrays from `a[]=1&a[]=2`, `a[0]=1&a[1]=2` and repeated keys `a=1&a=2` alike (one `a=1`
///   is an array of one);
/// - an empty value (`a=`) is an absent optional, as an HTML form's empty field means "not
///   given" — also for `String?`.
/// Errors name the key path (`tags[1]`), and the byte offset for malformed text.
public struct URLEncodedFormDecoder: Sendable {
    /// How `Date` is read.
    public enum DateDecoding: Sendable {
        /// `Date`'s own `Decodable` form: seconds since 2001-01-01 (the default, as
        /// ``URLEncodedFormEncoder/DateEncoding/deferredToDate`` writes).
        case deferredToDate
        /// Seconds since 1970.
        case secondsSince1970
        /// Milliseconds since 1970.
        case millisecondsSince1970
        /// ISO 8601 (with or without fractions and a time zone offset).
        case iso8601
        /// The date a closure returns for the text.
        case custom(@Sendable (String) throws -> Date)
    }

    /// How `Data` is read.
    public enum DataDecoding: Sendable {
        /// Base64 (the default).
        case base64
        /// The bytes a closure returns for the text.
        case custom(@Sendable (String) throws -> Data)
    }

    /// How keys are read.
    public enum KeyDecoding: Sendable {
        /// As written (the default).
        case useDefaultKeys
        /// `my_url_property` → `myUrlProperty`.
        case convertFromSnakeCase
        /// `my-url-property` → `myUrlProperty`.
        case convertFromKebabCase
        /// The key a closure returns.
        case custom(@Sendable (String) -> String)
    }

    /// How `Date` is read.
    public var dateDecoding: DateDecoding = .deferredToDate
    /// How `Data` is read.
    public var dataDecoding: DataDecoding = .base64
    /// How keys are read.
    public var keyDecoding: KeyDecoding = .useDefaultKeys
    /// The bounds the text must keep (body size, pairs, nesting, string length).
    public var limits: Limits = .default
    /// The charset of the percent-decoded bytes; UTF-8 by default.
    public var charset: Charset = .utf8
    /// Values made available to `Decodable` implementations through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder.
    public init() {}

    /// Decodes a `T` from form text, such as a query string without its `?`.
    ///
    /// - Throws: ``SatchelError``: ``SatchelError/Code/syntaxError`` (with the byte offset) and
    ///   ``SatchelError/Code/limitExceeded`` for the text; ``SatchelError/Code/typeMismatch``,
    ///   ``SatchelError/Code/valueNotFound`` and ``SatchelError/Code/numberOutOfRange`` with the
    ///   key path for the model.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws(SatchelError) -> T {
        try decode(type, from: Array(text.utf8))
    }

    /// Decodes a `T` from the bytes of a form body.
    /// - Throws: As ``decode(_:from:)-(_,String)``.
    public func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws(SatchelError) -> T {
        var options = FormReader.Options(duplicateKeys: .collectIntoArray)
        options.charset = charset
        let reader = FormReader(options: options, limits: limits)
        let tree = convertingKeys(in: try reader.read(body))
        var decoder = ValueDecoder()
        decoder.userInfo = userInfo
        decoder.textualScalars = ValueDecoder.TextualScalars(date: dateReader, bytes: dataReader)
        do {
            return try decoder.decode(type, from: tree)
        } catch {
            throw error as? SatchelError ?? SatchelError(.typeMismatch, "\(error)", underlying: error)
        }
    }

    private var dateReader: @Sendable (String) throws -> Date {
        switch dateDecoding {
        case .deferredToDate: { Date(timeIntervalSinceReferenceDate: try Self.seconds($0)) }
        case .secondsSince1970: { Date(timeIntervalSince1970: try Self.seconds($0)) }
        case .millisecondsSince1970: { Date(timeIntervalSince1970: try Self.seconds($0) / 1000) }
        case .iso8601:
            { text in
                guard let date = ISO8601.date(from: text) else { throw TextSyntax.notISO8601 }
                return date
            }
        case .custom(let read): read
        }
    }

    private var dataReader: @Sendable (String) throws -> [UInt8] {
        switch dataDecoding {
        case .base64:
            { text in
                guard let data = Data(base64Encoded: text) else { throw TextSyntax.notBase64 }
                return Array(data)
            }
        case .custom(let read): { Array(try read($0)) }
        }
    }

    /// Why a date or data text was refused (the decoder's error names the key path and the text).
    private enum TextSyntax: Error, CustomStringConvertible {
        case notANumber, notISO8601, notBase64
        var description: String {
            switch self {
            case .notANumber: "not a number"
            case .notISO8601: "not ISO 8601"
            case .notBase64: "not base64"
            }
        }
    }

    private static func seconds(_ text: String) throws -> Double {
        guard let seconds = Double(text), seconds.isFinite else { throw TextSyntax.notANumber }
        return seconds
    }

    private func convertingKeys(in value: Value) -> Value {
        if case .useDefaultKeys = keyDecoding { return value }
        switch value {
        case .object(let members):
            var result = ValueObject()
            for (key, member) in members { result[decodedKey(key)] = convertingKeys(in: member) }
            return .object(result)
        case .array(let elements): return .array(elements.map(convertingKeys(in:)))
        default: return value
        }
    }

    private func decodedKey(_ key: String) -> String {
        switch keyDecoding {
        case .useDefaultKeys: key
        case .convertFromSnakeCase: KeyCase.camelCased(key, from: "_")
        case .convertFromKebabCase: KeyCase.camelCased(key, from: "-")
        case .custom(let convert): convert(key)
        }
    }
}
