// SPDX-License-Identifier: Apache-2.0
/// A path into a ``Value``, written as `$.users[3].name`, used in error messages.
public enum KeyPathComponent: Sendable, Hashable {
    /// An object member.
    case key(String)
    /// An array element.
    case index(Int)

    /// Renders components as `$.a[0]["b c"]`: identifiers with a dot, anything else quoted.
    public static func render(_ components: some Collection<KeyPathComponent>) -> String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if isIdentifier(key) {
                    text += ".\(key)"
                } else {
                    text += "[\(Value.string(key).canonicalJSON())]"
                }
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
        }
    }
}
