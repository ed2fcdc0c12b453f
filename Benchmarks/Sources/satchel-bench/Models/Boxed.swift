// SPDX-License-Identifier: Apache-2.0
/// Holds a value on the heap so a model can contain itself (a tweet's `retweeted_status` is a
/// tweet). Coded transparently: it reads and writes exactly what `Wrapped` does.
final class Boxed<Wrapped: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The value held.
    let value: Wrapped

    /// Boxes `value`.
    init(_ value: Wrapped) {
        self.value = value
    }

    /// Decodes `Wrapped` from the same decoder, adding no level of nesting.
    init(from decoder: any Decoder) throws {
        value = try Wrapped(from: decoder)
    }

    /// Encodes `Wrapped` into the same encoder, adding no level of nesting.
    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }

    static func == (lhs: Boxed, rhs: Boxed) -> Bool {
        lhs.value == rhs.value
    }
}
