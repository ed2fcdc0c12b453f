// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a text-only format's typed decoder (``URLEncodedFormDecoder``, ``XMLModelDecoder``)
/// reads a `Date` from its text.
public enum TextDateDecoding: Sendable {
    /// `Date`'s own `Decodable` form: seconds since 2001-01-01.
    case deferredToDate
    /// Seconds since 1970.
    case secondsSince1970
    /// Milliseconds since 1970.
    case millisecondsSince1970
    /// ISO 8601 (with or without fractions and a time zone offset).
    case iso8601
    /// The date a closure returns for the text.
    case custom(@Sendable (String) throws -> Date)

    /// The reader of this strategy.
    var reader: @Sendable (String) throws -> Date {
        switch self {
        case .deferredToDate: { Date(timeIntervalSinceReferenceDate: try TextSyntax.seconds($0)) }
        case .secondsSince1970: { Date(timeIntervalSince1970: try TextSyntax.seconds($0)) }
        case .millisecondsSince1970: { Date(timeIntervalSince1970: try TextSyntax.seconds($0) / 1000) }
        case .iso8601:
            { text in
                guard let date = ISO8601.date(from: text.trimmingSpacesAndTabs.description) else {
                    throw TextSyntax.notISO8601
                }
                return date
            }
        case .custom(let read): read
        }
    }
}

/// How a text-only format's typed decoder reads `Data` from its text.
public enum TextDataDecoding: Sendable {
    /// Base64.
    case base64
    /// The bytes a closure returns for the text.
    case custom(@Sendable (String) throws -> Data)

    /// The reader of this strategy.
    var reader: @Sendable (String) throws -> [UInt8] {
        switch self {
        case .base64:
            { text in
                guard let data = Data(base64Encoded: text) else { throw TextSyntax.notBase64 }
                return Array(data)
            }
        case .custom(let read): { Array(try read($0)) }
        }
    }
}

/// How a typed decoder maps the names in the text to coding keys.
public enum KeyDecoding: Sendable {
    /// As written.
    case useDefaultKeys
    /// `my_url_property` → `myUrlProperty`.
    case convertFromSnakeCase
    /// `my-url-property` → `myUrlProperty`.
    case convertFromKebabCase
    /// The key a closure returns.
    case custom(@Sendable (String) -> String)

    /// `name` as a coding key's string.
    func key(_ name: String) -> String {
        switch self {
        case .useDefaultKeys: name
        case .convertFromSnakeCase: KeyCase.camelCased(name, from: "_")
        case .convertFromKebabCase: KeyCase.camelCased(name, from: "-")
        case .custom(let convert): convert(name)
        }
    }
}

/// How a typed encoder writes coding keys as names in the text (every format's encoder).
public enum KeyEncoding: Sendable {
    /// As declared (the default).
    case useDefaultKeys
    /// `myURLProperty` → `my_url_property`.
    case convertToSnakeCase
    /// `myURLProperty` → `my-url-property`.
    case convertToKebabCase
    /// `myKey` → `MyKey`.
    case capitalized
    /// `myKey` → `MYKEY`.
    case uppercased
    /// `myKey` → `mykey`.
    case lowercased
    /// The key a closure returns.
    case custom(@Sendable (String) -> String)

    /// The name written for the coding key `key`.
    func key(_ key: String) -> String {
        switch self {
        case .useDefaultKeys: key
        case .convertToSnakeCase: KeyCase.separated(key, by: "_")
        case .convertToKebabCase: KeyCase.separated(key, by: "-")
        case .capitalized: key.prefix(1).uppercased() + key.dropFirst()
        case .uppercased: key.uppercased()
        case .lowercased: key.lowercased()
        case .custom(let convert): convert(key)
        }
    }
}

/// Why a date or data text was refused (the decoder's error names the key path and the text).
enum TextSyntax: Error, CustomStringConvertible {
    case notANumber, notISO8601, notBase64

    var description: String {
        switch self {
        case .notANumber: "not a number"
        case .notISO8601: "not ISO 8601"
        case .notBase64: "not base64"
        }
    }

    static func seconds(_ text: String) throws -> Double {
        guard let seconds = Double(text), seconds.isFinite else { throw TextSyntax.notANumber }
        return seconds
    }
}
