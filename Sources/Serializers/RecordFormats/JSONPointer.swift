// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A JSON Pointer (RFC 6901): the path to one value of a JSON document, such as `/data/items`.
///
/// `""` is the whole document; each `/`-separated token names an object member, or an array
/// element by its index (`/results/0/items`). In a token, `~1` stands for `/` and `~0` for `~`.
///
/// ```swift
/// let pointer = try JSONPointer("/data/items")
/// print(pointer.tokens)  // ["data", "items"]
/// ```
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped: `["data", "items"]` for `/data/items`.
    public let tokens: [String]
    /// The pointer as written.
    public let description: String

    /// Parses a pointer.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for text that does not start with `/`
    ///   (and is not empty), or a `~` not followed by `0` or `1`.
    public init(_ text: String) throws(SatchelError) {
        description = text
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else {
            throw SatchelError(
                .invalidArgument, "JSON Pointer \"\(text)\" must be empty or start with '/' (RFC 6901)")
        }
        var tokens: [String] = []
        for raw in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            var token: [UInt8] = []
            var escaping = false
            for byte in raw {
                if escaping {
                    guard byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else {
                        throw SatchelError(
                            .invalidArgument, "JSON Pointer \"\(text)\": '~' must be followed by 0 or 1 (RFC 6901)")
                    }
                    token.append(byte == UInt8(ascii: "0") ? UInt8(ascii: "~") : UInt8(ascii: "/"))
                    escaping = false
                } else if byte == UInt8(ascii: "~") {
                    escaping = true
                } else {
                    token.append(byte)
                }
            }
            guard !escaping else {
                throw SatchelError(.invalidArgument, "JSON Pointer \"\(text)\" ends with a lone '~' (RFC 6901)")
            }
            tokens.append(String(decoding: token, as: UTF8.self))
        }
        self.tokens = tokens
    }

    /// The pointer to element `index` of the array this pointer names (`/data/items/3`).
    public func appending(index: Int) -> String {
        "\(description)/\(index)"
    }
}
