// SPDX-License-Identifier: Apache-2.0
extension Value: Codable {
    /// Decodes any value a decoder offers: null, bool, integer (signed, then unsigned), double,
    /// string, array or keyed object. Through ``ValueDecoder`` the node is taken as it is.
    public init(from decoder: any Decoder) throws {
        if let node = decoder as? ValueDecodingNode {
            self = node.value
            return
        }
        if let container = try? decoder.container(keyedBy: ValueCodingKey.self) {
            var members = ValueObject()
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(Value.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [Value] = []
            while !container.isAtEnd { elements.append(try container.decode(Value.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            self = .integer(number)
        } else if let number = try? container.decode(UInt64.self) {
            self = Value(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the value; bytes, dates and payloads are written in their canonical form
    /// (``canonicalForm``) unless the encoder is a ``ValueEncoder``, which keeps them.
    public func encode(to encoder: any Encoder) throws {
        if let node = encoder as? ValueEncodingNode {
            node.storage = .single(self)
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .integer(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .unsignedInteger(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .double(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: ValueCodingKey.self)
            for (key, member) in members { try container.encode(member, forKey: ValueCodingKey(stringValue: key)) }
        case .bytes, .date, .payload:
            try canonicalForm.encode(to: encoder)
        }
    }
}
