// SPDX-License-Identifier: Apache-2.0
extension Value: Equatable {
    /// Structural equality. Integers compare by number, so `.integer(5) == .unsignedInteger(5)`;
    /// doubles compare by IEEE equality; objects compare members in order.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer, .integer), (.integer, .unsignedInteger),
            (.unsignedInteger, .integer), (.unsignedInteger, .unsignedInteger):
            lhs.int64Value == rhs.int64Value && lhs.uint64Value == rhs.uint64Value
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.payload(let a), .payload(let b)): a.isEqual(to: b)
        default: false
        }
    }
}
