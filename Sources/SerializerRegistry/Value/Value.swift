// SPDX-License-Identifier: Apache-2.0
import OrderedCollections

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The members of a ``Value/object(_:)``: keys keep the order in which they arrived.
public typealias ValueObject = OrderedDictionary<String, Value>

/// The decoded result every serializer produces and every request serializer consumes.
///
/// `Value` is a JSON-like tree with the extra kinds that HTTP payloads need: lossless 64-bit
/// integers (signed and unsigned), raw bytes, dates, and typed payloads (XML documents, images,
/// multipart parts, embedded HTTP messages) that later serializers attach through
/// ``ValuePayload``.
///
/// Integers are kept exact: a number that fits `Int64` is ``integer(_:)``; one above
/// `Int64.max` that fits `UInt64` is ``unsignedInteger(_:)``. The two compare equal when they
/// hold the same number.
public enum Value: Sendable {
    /// An explicit null (JSON `null`, a form key without `=`).
    case null
    /// A boolean.
    case bool(Bool)
    /// A signed integer.
    case integer(Int64)
    /// An unsigned integer above `Int64.max`.
    case unsignedInteger(UInt64)
    /// A binary floating-point number.
    case double(Double)
    /// A Unicode string.
    case string(String)
    /// Raw bytes.
    case bytes([UInt8])
    /// A point in time.
    case date(Date)
    /// An ordered list of values.
    case array([Value])
    /// Key-value members; keys are unique and keep their order.
    case object(ValueObject)
    /// A typed payload contributed by a serializer (image, XML document, multipart parts, …).
    case payload(any ValuePayload)
}

extension Value {
    /// Creates an integer value, choosing ``integer(_:)`` or ``unsignedInteger(_:)`` so that
    /// every `UInt64` is represented without loss.
    public init(_ unsigned: UInt64) {
        if unsigned <= UInt64(Int64.max) {
            self = .integer(Int64(unsigned))
        } else {
            self = .unsignedInteger(unsigned)
        }
    }

    /// A short name of the value's kind, used in error messages ("string", "object", …).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer, .unsignedInteger: "integer"
        case .double: "double"
        case .string: "string"
        case .bytes: "bytes"
        case .date: "date"
        case .array: "array"
        case .object: "object"
        case .payload(let payload): type(of: payload).kind
        }
    }

    /// Whether the value is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if the value is a ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer as `Int64`, if the value is an integer that fits.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        case .unsignedInteger(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The integer as `UInt64`, if the value is a non-negative integer.
    public var uint64Value: UInt64? {
        switch self {
        case .integer(let value): UInt64(exactly: value)
        case .unsignedInteger(let value): value
        default: nil
        }
    }

    /// The number as `Double` (integers converted, possibly rounding), if the value is numeric.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .integer(let value): Double(value)
        case .unsignedInteger(let value): Double(value)
        default: nil
        }
    }

    /// The string, if the value is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The bytes, if the value is ``bytes(_:)``.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The date, if the value is a ``date(_:)``.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The elements, if the value is an ``array(_:)``.
    public var arrayValue: [Value]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if the value is an ``object(_:)``.
    public var objectValue: ValueObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The payload, if the value is a ``payload(_:)``.
    public var payloadValue: (any ValuePayload)? {
        if case .payload(let value) = self { return value }
        return nil
    }

    /// The payload as `P`, if the value is a ``payload(_:)`` of that type.
    ///
    /// ```swift
    /// let parts = value.payload(as: MultipartParts.self)   // or value.multipartParts
    /// ```
    public func payload<P: ValuePayload>(as type: P.Type) -> P? {
        payloadValue as? P
    }

    /// The member for `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> Value? {
        objectValue?[key]
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> Value? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
