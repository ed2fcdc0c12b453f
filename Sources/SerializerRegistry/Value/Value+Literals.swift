// SPDX-License-Identifier: Apache-2.0
extension Value: ExpressibleByNilLiteral {
    /// `nil` in a literal is ``Value/null``.
    public init(nilLiteral: ()) { self = .null }
}

extension Value: ExpressibleByBooleanLiteral {
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value: ExpressibleByIntegerLiteral {
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension Value: ExpressibleByFloatLiteral {
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension Value: ExpressibleByStringLiteral {
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Value: ExpressibleByArrayLiteral {
    /// An array literal.
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
}

extension Value: ExpressibleByDictionaryLiteral {
    /// A dictionary literal; members keep the literal's order, and a repeated key keeps its
    /// last value.
    public init(dictionaryLiteral elements: (String, Value)...) {
        var object = ValueObject(minimumCapacity: elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
