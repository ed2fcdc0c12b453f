// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A member of a compound value that failed to decode, in place of its value: canonical JSON
/// `{"$error": {"code": "syntaxError", "message": "…"}}` (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md, "Canonical JSON"). The other members still
/// decode.
public final class DecodingFailure: ValuePayload, Equatable {
    /// `"$error"`.
    public static let kind = "$error"

    /// The error.
    public let error: SatchelError

    /// Wraps an error.
    public init(_ error: SatchelError) {
        self.error = error
    }

    /// `{"code": name, "message": …}`; the message includes the location, as
    /// ``SatchelError/description`` gives it without the code.
    public var canonicalValue: Value {
        let description = error.description
        let prefix = "\(error.code.name): "
        let message = description.hasPrefix(prefix) ? String(description.dropFirst(prefix.count)) : description
        return .object(["code": .string(error.code.name), "message": .string(message)])
    }

    /// Equal when the code, message and offset are.
    public static func == (lhs: DecodingFailure, rhs: DecodingFailure) -> Bool {
        lhs.error.code == rhs.error.code && lhs.error.message == rhs.error.message
            && lhs.error.offset == rhs.error.offset
    }
}
