// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A model that uses every primitive `Codable` type through every kind of container — keyed,
/// keyed if present, unkeyed, single value, nested keyed and unkeyed, super encoders and
/// decoders — each call with its concrete type, so that a typed coder's round trip exercises
/// every overload a generated `Codable` conformance can reach.
public struct EveryPrimitive: Codable, Equatable, Sendable {
    public var bool = true
    public var string = "é 😀 \"quoted\""
    public var double = 2.5
    public var float: Float = -1.25
    public var int = -7
    public var int8: Int8 = -8
    public var int16: Int16 = -16
    public var int32: Int32 = -32
    public var int64: Int64 = Int64.min
    public var uint: UInt = 7
    public var uint8: UInt8 = 255
    public var uint16: UInt16 = 16
    public var uint32: UInt32 = 32
    public var uint64: UInt64 = UInt64.max
    /// Present in the optional forms; `absent` is never encoded.
    public var absent: Int? = nil
    /// Whether the list holds a list (XML has no form for an array directly in an array).
    public var nestsListInList = true

    public init(nestsListInList: Bool = true) { self.nestsListInList = nestsListInList }

    enum Key: String, CodingKey {
        case bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
        case absent, optionals, list, nested, scalars, inherited
    }

    public func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(bool, forKey: .bool)
        try keyed.encode(string, forKey: .string)
        try keyed.encode(double, forKey: .double)
        try keyed.encode(float, forKey: .float)
        try keyed.encode(int, forKey: .int)
        try keyed.encode(int8, forKey: .int8)
        try keyed.encode(int16, forKey: .int16)
        try keyed.encode(int32, forKey: .int32)
        try keyed.encode(int64, forKey: .int64)
        try keyed.encode(uint, forKey: .uint)
        try keyed.encode(uint8, forKey: .uint8)
        try keyed.encode(uint16, forKey: .uint16)
        try keyed.encode(uint32, forKey: .uint32)
        try keyed.encode(uint64, forKey: .uint64)
        try keyed.encodeIfPresent(absent, forKey: .absent)

        var optionals = keyed.nestedContainer(keyedBy: Key.self, forKey: .optionals)
        try optionals.encodeIfPresent(Optional(bool), forKey: .bool)
        try optionals.encodeIfPresent(Optional(string), forKey: .string)
        try optionals.encodeIfPresent(Optional(double), forKey: .double)
        try optionals.encodeIfPresent(Optional(float), forKey: .float)
        try optionals.encodeIfPresent(Optional(int), forKey: .int)
        try optionals.encodeIfPresent(Optional(int8), forKey: .int8)
        try optionals.encodeIfPresent(Optional(int16), forKey: .int16)
        try optionals.encodeIfPresent(Optional(int32), forKey: .int32)
        try optionals.encodeIfPresent(Optional(int64), forKey: .int64)
        try optionals.encodeIfPresent(Optional(uint), forKey: .uint)
        try optionals.encodeIfPresent(Optional(uint8), forKey: .uint8)
        try optionals.encodeIfPresent(Optional(uint16), forKey: .uint16)
        try optionals.encodeIfPresent(Optional(uint32), forKey: .uint32)
        try optionals.encodeIfPresent(Optional(uint64), forKey: .uint64)

        var list = keyed.nestedUnkeyedContainer(forKey: .list)
        try list.encode(bool)
        try list.encode(string)
        try list.encode(double)
        try list.encode(float)
        try list.encode(int)
        try list.encode(int8)
        try list.encode(int16)
        try list.encode(int32)
        try list.encode(int64)
        try list.encode(uint)
        try list.encode(uint8)
        try list.encode(uint16)
        try list.encode(uint32)
        try list.encode(uint64)
        var inner = list.nestedContainer(keyedBy: Key.self)
        try inner.encode(int8, forKey: .int8)
        if nestsListInList {
            var innerList = list.nestedUnkeyedContainer()
            try innerList.encode(uint16)
        }

        var scalars = keyed.nestedUnkeyedContainer(forKey: .scalars)
        for scalar in Scalar.all(of: self) { try scalar.encode(to: scalars.superEncoder()) }
        try Scalar.int32(int32).encode(to: keyed.superEncoder(forKey: .inherited))
        try Scalar.string(string).encode(to: keyed.superEncoder())
    }

    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: Key.self)
        bool = try keyed.decode(Bool.self, forKey: .bool)
        string = try keyed.decode(String.self, forKey: .string)
        double = try keyed.decode(Double.self, forKey: .double)
        float = try keyed.decode(Float.self, forKey: .float)
        int = try keyed.decode(Int.self, forKey: .int)
        int8 = try keyed.decode(Int8.self, forKey: .int8)
        int16 = try keyed.decode(Int16.self, forKey: .int16)
        int32 = try keyed.decode(Int32.self, forKey: .int32)
        int64 = try keyed.decode(Int64.self, forKey: .int64)
        uint = try keyed.decode(UInt.self, forKey: .uint)
        uint8 = try keyed.decode(UInt8.self, forKey: .uint8)
        uint16 = try keyed.decode(UInt16.self, forKey: .uint16)
        uint32 = try keyed.decode(UInt32.self, forKey: .uint32)
        uint64 = try keyed.decode(UInt64.self, forKey: .uint64)
        absent = try keyed.decodeIfPresent(Int.self, forKey: .absent)
        try Self.check(keyed.contains(.bool) && !keyed.contains(.absent), "keyed containers know their keys")

        let optionals = try keyed.nestedContainer(keyedBy: Key.self, forKey: .optionals)
        let decoded: [AnyHashable?] = [
            try optionals.decodeIfPresent(Bool.self, forKey: .bool),
            try optionals.decodeIfPresent(String.self, forKey: .string),
            try optionals.decodeIfPresent(Double.self, forKey: .double),
            try optionals.decodeIfPresent(Float.self, forKey: .float),
            try optionals.decodeIfPresent(Int.self, forKey: .int),
            try optionals.decodeIfPresent(Int8.self, forKey: .int8),
            try optionals.decodeIfPresent(Int16.self, forKey: .int16),
            try optionals.decodeIfPresent(Int32.self, forKey: .int32),
            try optionals.decodeIfPresent(Int64.self, forKey: .int64),
            try optionals.decodeIfPresent(UInt.self, forKey: .uint),
            try optionals.decodeIfPresent(UInt8.self, forKey: .uint8),
            try optionals.decodeIfPresent(UInt16.self, forKey: .uint16),
            try optionals.decodeIfPresent(UInt32.self, forKey: .uint32),
            try optionals.decodeIfPresent(UInt64.self, forKey: .uint64),
        ]
        let fields: [AnyHashable?] = [
            bool, string, double, float, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
        ]
        try Self.check(decoded == fields, "the optional forms hold the same values")
        try Self.check(try optionals.decodeIfPresent(Int.self, forKey: .absent) == nil, "an absent key decodes as nil")

        var list = try keyed.nestedUnkeyedContainer(forKey: .list)
        let listed: [AnyHashable] = [
            try list.decode(Bool.self), try list.decode(String.self), try list.decode(Double.self),
            try list.decode(Float.self), try list.decode(Int.self), try list.decode(Int8.self),
            try list.decode(Int16.self), try list.decode(Int32.self), try list.decode(Int64.self),
            try list.decode(UInt.self), try list.decode(UInt8.self), try list.decode(UInt16.self),
            try list.decode(UInt32.self), try list.decode(UInt64.self),
        ]
        try Self.check(listed == fields.map { $0! }, "the unkeyed forms hold the same values")
        let inner = try list.nestedContainer(keyedBy: Key.self)
        try Self.check(try inner.decode(Int8.self, forKey: .int8) == int8, "a keyed container nested in an unkeyed one")
        nestsListInList = !list.isAtEnd
        if nestsListInList {
            var innerList = try list.nestedUnkeyedContainer()
            try Self.check(try innerList.decode(UInt16.self) == uint16, "an unkeyed container nested in an unkeyed one")
        }
        try Self.check(list.isAtEnd, "the list ends after what was encoded")

        var scalars = try keyed.nestedUnkeyedContainer(forKey: .scalars)
        var seen: [Scalar] = []
        for kind in Scalar.all(of: self) { seen.append(try Scalar(like: kind, from: scalars.superDecoder())) }
        try Self.check(seen == Scalar.all(of: self), "single-value containers hold each type")
        try Self.check(
            try Scalar(like: .int32(0), from: keyed.superDecoder(forKey: .inherited)) == .int32(int32),
            "superDecoder(forKey:)")
        try Self.check(try Scalar(like: .string(""), from: keyed.superDecoder()) == .string(string), "superDecoder()")
    }

    /// What decoding found different from what encoding wrote (a failure of the coder under test).
    public struct Mismatch: Error, CustomStringConvertible {
        public let description: String
    }

    static func check(_ condition: Bool, _ what: String) throws {
        guard condition else { throw Mismatch(description: "EveryPrimitive: \(what) failed") }
    }

    /// One value in a single-value container, called with its concrete type.
    enum Scalar: Equatable {
        case bool(Bool), string(String), double(Double), float(Float), int(Int), int8(Int8), int16(Int16)
        case int32(Int32), int64(Int64), uint(UInt), uint8(UInt8), uint16(UInt16), uint32(UInt32), uint64(UInt64)

        static func all(of model: EveryPrimitive) -> [Scalar] {
            [
                .bool(model.bool), .string(model.string), .double(model.double), .float(model.float), .int(model.int),
                .int8(model.int8), .int16(model.int16), .int32(model.int32), .int64(model.int64), .uint(model.uint),
                .uint8(model.uint8), .uint16(model.uint16), .uint32(model.uint32), .uint64(model.uint64),
            ]
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .float(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .int8(let value): try container.encode(value)
            case .int16(let value): try container.encode(value)
            case .int32(let value): try container.encode(value)
            case .int64(let value): try container.encode(value)
            case .uint(let value): try container.encode(value)
            case .uint8(let value): try container.encode(value)
            case .uint16(let value): try container.encode(value)
            case .uint32(let value): try container.encode(value)
            case .uint64(let value): try container.encode(value)
            }
        }

        /// Decodes a value of the same case as `kind`.
        init(like kind: Scalar, from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            try EveryPrimitive.check(!container.decodeNil(), "a present value is not nil")
            switch kind {
            case .bool: self = .bool(try container.decode(Bool.self))
            case .string: self = .string(try container.decode(String.self))
            case .double: self = .double(try container.decode(Double.self))
            case .float: self = .float(try container.decode(Float.self))
            case .int: self = .int(try container.decode(Int.self))
            case .int8: self = .int8(try container.decode(Int8.self))
            case .int16: self = .int16(try container.decode(Int16.self))
            case .int32: self = .int32(try container.decode(Int32.self))
            case .int64: self = .int64(try container.decode(Int64.self))
            case .uint: self = .uint(try container.decode(UInt.self))
            case .uint8: self = .uint8(try container.decode(UInt8.self))
            case .uint16: self = .uint16(try container.decode(UInt16.self))
            case .uint32: self = .uint32(try container.decode(UInt32.self))
            case .uint64: self = .uint64(try container.decode(UInt64.self))
            }
        }
    }
}
