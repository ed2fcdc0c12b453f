// SPDX-License-Identifier: Apache-2.0
/// A position in a typed decode or encode (every format's `Decoder`, and an `Encoder` whose
/// nodes its parents do not hold): its parent and the key that leads to it. The coding path is
/// computed from the parent chain only when something asks for it, so no path arrays are
/// allocated; errors render it as a key path (`$.items[1].name`).
package protocol CodingPathNode: AnyObject {
    /// The node this one is a member or element of; `nil` at the top.
    var parent: Self? { get }
    /// The key or index that leads here from the parent; `nil` at the top.
    var key: (any CodingKey)? { get }
}

extension CodingPathNode {
    /// The keys from the top to this node.
    package var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: Self? = self
        while let current = node, let key = current.key {
            path.append(key)
            node = current.parent
        }
        return path.reversed()
    }

    /// This node's key path, with `key` appended when given: `$.items[1].name`.
    package func path(appending key: (any CodingKey)? = nil) -> String {
        var path = codingPath
        if let key { path.append(key) }
        return KeyPathComponent.render(codingPath: path)
    }
}

extension KeyPathComponent {
    /// A coding path as a key path: integer keys as indices, the rest as names.
    package static func render(codingPath: [any CodingKey]) -> String {
        render(codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
    }
}

extension SatchelError {
    /// Runs a typed decode of `type` and gives its failures as ``SatchelError``s: a
    /// `DecodingError` thrown by a `Decodable` (with its coding path as the key path), anything
    /// else as a type mismatch with the error underlying. `body` runs the caller's
    /// `init(from:)` through `Decoder`, whose `throws` is untyped: the one place a typed decoder
    /// turns what a model throws into a ``SatchelError``.
    package static func decoding<T>(_ type: T.Type, _ body: () throws -> T) throws(SatchelError) -> T {
        do {
            return try body()
        } catch let error as SatchelError {
            throw error
        } catch let error as DecodingError {
            throw SatchelError(decodingError: error)
        } catch {
            throw SatchelError(.typeMismatch, "\(T.self) could not be decoded", underlying: error)
        }
    }

    /// This error with its key path placed under `prefix`: an error of a nested decode (`$.id`)
    /// seen from where that decode started (`$.items[1]` → `$.items[1].id`).
    package func underKeyPath(_ prefix: String) -> SatchelError {
        var error = self
        if let inner = error.keyPath, inner != "$" {
            error.keyPath = prefix + inner.dropFirst()
        } else {
            error.keyPath = prefix
        }
        return error
    }
}
