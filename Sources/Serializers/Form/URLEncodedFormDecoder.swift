// SPDX-License-Identifier: Apache-2.0
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
    /// How `Date` is read; the default is `Date`'s own form (seconds since 2001), as
    /// ``URLEncodedFormEncoder/DateEncoding/deferredToDate`` writes.
    public typealias DateDecoding = TextDateDecoding
    /// How `Data` is read.
    public typealias DataDecoding = TextDataDecoding
    /// How keys are read.
    public typealias KeyDecoding = Serializers.KeyDecoding

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
        decoder.textualScalars = ValueDecoder.TextualScalars(date: dateDecoding.reader, bytes: dataDecoding.reader)
        return try decoder.decode(type, from: tree)
    }

    private func convertingKeys(in value: Value) -> Value {
        if case .useDefaultKeys = keyDecoding { return value }
        switch value {
        case .object(let members):
            var result = ValueObject()
            for (key, member) in members { result[keyDecoding.key(key)] = convertingKeys(in: member) }
            return .object(result)
        case .array(let elements): return .array(elements.map(convertingKeys(in:)))
        default: return value
        }
    }
}
