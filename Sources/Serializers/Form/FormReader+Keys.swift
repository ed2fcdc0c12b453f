// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension FormReader {
    /// One step of a key: `a[b][]` is `[.key("a"), .key("b"), .append]`.
    enum KeySegment: Equatable {
        /// An object member (the base name, or the text between brackets).
        case key(String)
        /// `[]`: append to an array.
        case append
    }

    /// `key` as a JSON string for messages, cut to its first 60 characters when longer than 80.
    static func quote(_ key: String) -> String {
        guard key.utf8.count > 80 else { return Value.string(key).canonicalJSON() }
        return Value.string(String(key.prefix(60))).canonicalJSON() + "…"
    }

    /// Splits a percent-decoded key into its base name and bracketed segments.
    ///
    /// The grammar is `name ( "[" inner "]" )*` where `name` is at least one byte and neither
    /// `name` nor `inner` contains a bracket; an empty `inner` appends. A key without brackets is
    /// a plain name, possibly empty.
    struct KeyParser {
        /// A parse failure and the index in the decoded key where it is.
        struct Failure: Error {
            /// The error, without its offset (the caller maps ``index`` to the input).
            var reason: SatchelError
            /// The index in the decoded key.
            var index: Int
        }

        let key: [UInt8]
        let maxDepth: Int

        init(key: [UInt8], maxDepth: Int) {
            self.key = key
            self.maxDepth = maxDepth
        }

        /// Returns the base name followed by the bracketed segments.
        ///
        /// - Throws: ``Failure`` with ``SatchelError/Code/syntaxError`` for a bracket out of place,
        ///   or ``SatchelError/Code/limitExceeded`` (`maxDepth`) for more than `maxDepth` brackets.
        func parse() throws(Failure) -> [KeySegment] {
            guard let open = key.firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) else {
                return [.key(String(decoding: key, as: UTF8.self))]
            }
            if key[open] == UInt8(ascii: "]") {
                throw failure("unexpected ']' before any '['", at: open)
            }
            if open == 0 {
                throw failure("the name before '[' is empty", at: open)
            }
            var segments: [KeySegment] = [.key(String(decoding: key[..<open], as: UTF8.self))]
            var index = open
            while index < key.count {
                guard key[index] == UInt8(ascii: "[") else {
                    throw failure("expected '[' after ']'", at: index)
                }
                var close = index + 1
                while close < key.count && key[close] != UInt8(ascii: "]") && key[close] != UInt8(ascii: "[") {
                    close += 1
                }
                guard close < key.count else {
                    throw failure("'[' is never closed", at: index)
                }
                guard key[close] == UInt8(ascii: "]") else {
                    throw failure("unexpected '[' inside brackets", at: close)
                }
                if segments.count > maxDepth {
                    throw Failure(
                        reason: .limitExceeded(
                            "maxDepth", maxDepth, "key \(quoted) with more than \(maxDepth) levels of brackets"),
                        index: index)
                }
                segments.append(
                    close == index + 1 ? .append : .key(String(decoding: key[(index + 1)..<close], as: UTF8.self)))
                index = close + 1
            }
            return segments
        }

        private var quoted: String {
            FormReader.quote(String(decoding: key, as: UTF8.self))
        }

        private func failure(_ problem: String, at index: Int) -> Failure {
            Failure(reason: SatchelError(.syntaxError, "malformed key \(quoted): \(problem)"), index: index)
        }
    }
}
