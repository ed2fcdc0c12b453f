// SPDX-License-Identifier: Apache-2.0
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Value {
    /// The value as plain JSON types, following Satchel's canonical JSON convention.
    ///
    /// Bytes become `{"$data": base64}`, dates `{"$date": ISO-8601}`, and a payload
    /// `{kind: canonicalValue}` (for example `{"$image": {…}}`). Everything else is unchanged.
    /// The result contains only null, bool, numbers, strings, arrays and objects.
    ///
    /// - Complexity: O(n) in the number of nodes.
    public var canonicalForm: Value {
        switch self {
        case .null, .bool, .integer, .unsignedInteger, .double, .string:
            return self
        case .bytes(let bytes):
            return .object(["$data": .string(Data(bytes).base64EncodedString())])
        case .date(let date):
            return .object(["$date": .string(ISO8601.string(from: date))])
        case .array(let elements):
            return .array(elements.map(\.canonicalForm))
        case .object(let members):
            return .object(members.mapValues(\.canonicalForm))
        case .payload(let payload):
            return .object([type(of: payload).kind: payload.canonicalValue.canonicalForm])
        }
    }

    /// The canonical JSON text of the value (see ``canonicalForm``).
    ///
    /// - Parameter pretty: Indent with two spaces and put each member on its own line.
    /// - Returns: UTF-8 JSON text. Non-finite doubles, which JSON cannot express, are written as
    ///   `null`.
    public func canonicalJSON(pretty: Bool = false) -> String {
        var options = JSONWriter.Options()
        options.prettyPrinted = pretty
        options.escapesSlashes = false
        options.nonFiniteNumbers = .null
        options.maxDepth = .max  // the value already exists; its depth was bounded when it was built
        // The canonical form has no bytes, dates or payloads left, so writing cannot fail.
        let bytes = (try? JSONWriter(options: options).write(canonicalForm)) ?? Array("null".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Value: CustomStringConvertible {
    /// The canonical JSON text of the value.
    public var description: String { canonicalJSON() }
}

/// ISO 8601 in UTC, with milliseconds only when the date has a fraction of a second that shows
/// in them (milliseconds are truncated, so a date never moves to the next second).
package enum ISO8601 {
    /// The date as ISO 8601 text, with milliseconds only when it has a fraction of a second.
    package static func string(from date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let hasFraction = milliseconds.truncatingRemainder(dividingBy: 1000) != 0
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: hasFraction)
        return style.format(date)
    }

    /// Parses ISO 8601 text, with or without fractional seconds.
    package static func date(from string: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle().parse(string) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string)
    }
}
