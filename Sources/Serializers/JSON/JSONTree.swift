// SPDX-License-Identifier: Apache-2.0
import CSatchelJSONC
import OrderedCollections
import SerializerRegistry

/// Converts a json-c tree into a ``Value``.
///
/// The text was validated by ``JSONLexer`` before json-c saw it, so strings are valid UTF-8 and
/// numbers are in range; what is left to check here is what json-c computes (a double that
/// overflowed to infinity) and the limits that need the tree (members per object).
struct JSONTree {
    let options: JSONReadingOptions
    let maxPairs: Int
    /// Member names had `\u0000` rewritten to U+FDD0 by the lexer; turn it back.
    let restoresNullCharacters: Bool

    /// An error and the path to the node, innermost component first.
    ///
    /// A class, and made only in non-inlined functions, so the recursive conversion's frames stay
    /// small: a `SatchelError` held by value in every frame made each level cost about 1.4 KB of
    /// stack, and the supported depth (1 000) overflowed a 512 KiB thread stack.
    final class Failure: Error, @unchecked Sendable {
        var error: SatchelError
        var reversedPath: [KeyPathComponent] = []

        init(error: SatchelError) {
            self.error = error
        }

        /// The error with the path as its key path.
        var located: SatchelError {
            var located = error
            located.keyPath = KeyPathComponent.render(reversedPath.reversed())
            return located
        }
    }

    func value(of root: OpaquePointer?) throws(SatchelError) -> Value {
        do {
            return try convert(root)
        } catch {
            throw error.located
        }
    }

    private func convert(_ node: OpaquePointer?) throws(Failure) -> Value {
        guard let node else { return .null }
        switch json_object_get_type(node) {
        case json_type_null:
            return .null
        case json_type_boolean:
            return .bool(json_object_get_boolean(node) != 0)
        case json_type_int:
            let signed = json_object_get_int64(node)
            if signed == Int64.max { return Value(json_object_get_uint64(node)) }
            return .integer(signed)
        case json_type_double:
            let number = json_object_get_double(node)
            guard number.isFinite else { throw Self.outOfRange(node) }
            return .double(number)
        case json_type_string:
            guard let text = json_object_get_string(node) else { return .string("") }
            let length = Int(json_object_get_string_len(node))
            let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
            return .string(String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
        case json_type_array:
            return try array(node)
        case json_type_object:
            return try object(node)
        default:
            throw Self.unknownNode()
        }
    }

    @inline(never)
    private static func outOfRange(_ node: OpaquePointer) -> Failure {
        let text = String(cString: json_object_to_json_string_ext(node, JSON_C_TO_STRING_PLAIN))
        return Failure(error: SatchelError(.numberOutOfRange, "the number \(text) is outside the range of Double"))
    }

    @inline(never)
    private static func unknownNode() -> Failure {
        Failure(error: SatchelError(.internal, "json-c returned a node of unknown type"))
    }

    @inline(never)
    private static func tooManyMembers(_ count: Int, maxPairs: Int) -> Failure {
        Failure(error: .limitExceeded("maxPairs", maxPairs, "an object with \(count) members"))
    }

    @inline(never)
    private func array(_ node: OpaquePointer) throws(Failure) -> Value {
        let count = json_object_array_length(node)
        var elements: [Value] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            let element: Value
            do {
                element = try convert(json_object_array_get_idx(node, index))
            } catch {
                error.reversedPath.append(.index(index))
                throw error
            }
            if options.removesKeysWithNullValues && element.isNull { continue }
            elements.append(element)
        }
        return .array(elements)
    }

    @inline(never)
    private func object(_ node: OpaquePointer) throws(Failure) -> Value {
        let count = Int(json_object_object_length(node))
        if count > maxPairs { throw Self.tooManyMembers(count, maxPairs: maxPairs) }
        var keys: [String] = []
        var values: [Value] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        var entry = lh_table_head(json_object_get_object(node))
        while let current = entry {
            entry = lh_entry_next(current)
            guard let rawKey = lh_entry_k(current) else { continue }
            var key = String(cString: rawKey.assumingMemoryBound(to: CChar.self))
            if restoresNullCharacters && key.unicodeScalars.contains(where: { $0.value == 0xFDD0 }) {
                var scalars = String.UnicodeScalarView()
                for scalar in key.unicodeScalars {
                    scalars.append(scalar.value == 0xFDD0 ? "\u{0000}" : scalar)
                }
                key = String(scalars)
            }
            let member: Value
            do {
                member = try convert(OpaquePointer(lh_entry_v(current)))
            } catch {
                error.reversedPath.append(.key(key))
                throw error
            }
            if options.removesKeysWithNullValues && member.isNull { continue }
            keys.append(key)
            values.append(member)
        }
        return .object(ValueObject(uncheckedUniqueKeys: keys, values: values))
    }
}
