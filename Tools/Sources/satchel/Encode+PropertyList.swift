// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

extension Encode {
    /// `value` with the canonical JSON forms of plist types turned back into them: an object
    /// whose only member is `$data` (base64), `$date` (ISO 8601) or `$uid` (an integer) becomes
    /// bytes, a date or a ``PropertyListUID``.
    /// - Throws: ``SatchelError/Code/typeMismatch`` when such a member's value is malformed.
    static func propertyListValue(_ value: Value) throws -> Value {
        switch value {
        case .array(let elements):
            return .array(try elements.map(propertyListValue))
        case .object(let members):
            if members.count == 1, let (key, member) = members.elements.first, let tagged = try tagged(key, member) {
                return tagged
            }
            return .object(try members.mapValues(propertyListValue))
        default:
            return value
        }
    }

    private static func tagged(_ key: String, _ member: Value) throws -> Value? {
        switch key {
        case "$data":
            guard let text = member.stringValue, let data = Data(base64Encoded: text) else {
                throw SatchelError(.typeMismatch, "$data must be a base64 string")
            }
            return .bytes(Array(data))
        case "$date":
            guard let text = member.stringValue,
                let date = (try? Date(text, strategy: .iso8601))
                    ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            else {
                throw SatchelError(.typeMismatch, "$date must be an ISO 8601 date such as 2026-11-22T12:00:00Z")
            }
            return .date(date)
        case "$uid":
            guard let number = member.uint64Value else {
                throw SatchelError(.typeMismatch, "$uid must be a non-negative integer")
            }
            return .payload(PropertyListUID(number))
        default:
            return nil
        }
    }
}
