// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// A fingerprint of a parsed JSON tree: how many of each kind of node it holds, and how many
/// bytes of strings and keys. Two parsers that read the same text must agree on it, which keeps
/// a broken or lazy parser from looking fast.
struct TreeShape: Equatable, CustomStringConvertible, Sendable {
    /// Objects.
    var objects = 0
    /// Members of all objects.
    var members = 0
    /// Arrays.
    var arrays = 0
    /// Elements of all arrays.
    var elements = 0
    /// Strings (not keys).
    var strings = 0
    /// UTF-8 bytes of all strings and keys.
    var textBytes = 0
    /// Numbers and booleans (Foundation cannot tell them apart on Linux).
    var scalars = 0
    /// Nulls.
    var nulls = 0
    /// Members or elements of the top-level container.
    var topLevelCount = 0

    var description: String {
        "objects \(objects), members \(members), arrays \(arrays), elements \(elements), strings \(strings), "
            + "text bytes \(textBytes), numbers and booleans \(scalars), nulls \(nulls), top-level count \(topLevelCount)"
    }

    /// The shape of a Satchel ``Value``.
    init(_ value: Value) {
        switch value {
        case .object(let members): topLevelCount = members.count
        case .array(let elements): topLevelCount = elements.count
        default: topLevelCount = 1
        }
        add(value)
    }

    /// The shape of a Foundation `JSONSerialization` tree.
    init(foundation object: Any) {
        switch object {
        case let dictionary as [String: Any]: topLevelCount = dictionary.count
        case let array as [Any]: topLevelCount = array.count
        default: topLevelCount = 1
        }
        add(foundation: object)
    }

    private mutating func add(_ value: Value) {
        switch value {
        case .object(let members):
            objects += 1
            self.members += members.count
            for (key, member) in members {
                textBytes += key.utf8.count
                add(member)
            }
        case .array(let elements):
            arrays += 1
            self.elements += elements.count
            for element in elements { add(element) }
        case .string(let string):
            strings += 1
            textBytes += string.utf8.count
        case .null:
            nulls += 1
        case .bool, .integer, .unsignedInteger, .double:
            scalars += 1
        case .bytes, .date, .payload:
            // JSON never produces these; count them as something no Foundation tree has.
            nulls += 1_000_000
        }
    }

    private mutating func add(foundation object: Any) {
        switch object {
        case let dictionary as [String: Any]:
            objects += 1
            members += dictionary.count
            for (key, member) in dictionary {
                textBytes += key.utf8.count
                add(foundation: member)
            }
        case let array as [Any]:
            arrays += 1
            elements += array.count
            for element in array { add(foundation: element) }
        case let string as String:
            strings += 1
            textBytes += string.utf8.count
        case is NSNull:
            nulls += 1
        default:
            scalars += 1
        }
    }
}
