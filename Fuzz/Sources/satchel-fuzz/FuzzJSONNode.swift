// SPDX-License-Identifier: Apache-2.0
/// Any JSON text as a `Decodable`, so the JSON target drives `JSONReader.read(_:from:)` (json-c's
/// tree decoded straight into a type) through every container kind.
enum FuzzJSONNode: Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([FuzzJSONNode])
    case object([String: FuzzJSONNode])

    /// A key that is whatever the object holds.
    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: FuzzJSONNode] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(FuzzJSONNode.self, forKey: key)
            }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [FuzzJSONNode] = []
            while !array.isAtEnd {
                elements.append(try array.decode(FuzzJSONNode.self))
            }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let value = try? single.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? single.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? single.decode(UInt64.self) {
                self = .unsigned(value)
            } else if let value = try? single.decode(Double.self) {
                self = .double(value)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    /// Equal structure and values, a NaN equal to a NaN with the same bits (`==` on doubles
    /// would call two reads of the same NaN different).
    func same(as other: FuzzJSONNode) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.unsigned(let a), .unsigned(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.same(as: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.same(as: $0) } ?? false }
        default: return false
        }
    }
}

/// Encodable through every container kind, so the property-list targets can write a node both
/// as a model and through its `Value` tree, and compare the two.
extension FuzzJSONNode: Encodable {
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var object = encoder.container(keyedBy: AnyKey.self)
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                try object.encode(member, forKey: AnyKey(stringValue: key))
            }
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .unsigned(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .double(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        }
    }
}
