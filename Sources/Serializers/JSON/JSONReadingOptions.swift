// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// How JSON text is read into a ``Value``.
public struct JSONReadingOptions: Sendable, Hashable {
    /// What to do with an integer outside both the `Int64` and `UInt64` range.
    public enum BigIntegers: Sendable, Hashable {
        /// Fail with ``SatchelError/Code/numberOutOfRange`` naming the offset (the default:
        /// nothing is ever rounded silently).
        case `throw`
        /// Read it as the nearest `Double` (an explicit, lossy choice).
        case double
        /// Keep its digits exactly, as a ``Value/string(_:)``.
        case string
    }

    /// Remove members whose value is null, and null array elements, at every level
    /// (AFNetworking's `removesKeysWithNullValues`).
    public var removesKeysWithNullValues = false
    /// Accept a bare number, string, boolean or null as the whole document (RFC 8259 allows it;
    /// the default is `true`). When `false`, only an object or array is accepted, as
    /// `NSJSONSerialization` does without `NSJSONReadingFragmentsAllowed`.
    public var allowsTopLevelScalars = true
    /// Integers beyond 64 bits.
    public var bigIntegers = BigIntegers.throw

    /// The deepest nesting the JSON reader supports whatever ``Limits/maxDepth`` says: json-c
    /// frees its trees recursively, and deeper trees could exhaust a thread's stack.
    public static let maximumSupportedDepth = 1_000

    /// Default options.
    public init() {}
}
