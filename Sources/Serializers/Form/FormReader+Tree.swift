// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension FormReader {
    /// The object being rebuilt from pairs, as a flat table of nodes so that inserting deep
    /// inside it mutates in place (a ``Value`` would copy each container on the way down).
    struct Tree {
        struct Node {
            enum Kind {
                case scalar
                case object
                case array
            }

            var kind: Kind
            /// The value of a scalar: a string, or null for a key without `=`.
            var scalar: Value = .null
            /// An object's keys in insertion order.
            var keys: [String] = []
            /// An object's members: key to node index.
            var members: [String: Int] = [:]
            /// An array's elements as node indices.
            var elements: [Int] = []
        }

        /// Node 0 is the top-level object.
        private var nodes: [Node] = [Node(kind: .object)]
        private let duplicateKeys: DuplicateKeys

        init(duplicateKeys: DuplicateKeys) {
            self.duplicateKeys = duplicateKeys
        }

        /// Inserts one pair with Rack's `normalize_params` semantics.
        ///
        /// - Parameters:
        ///   - value: The pair's value (a string, or null).
        ///   - segments: The parsed key; the first is always a ``KeySegment/key(_:)``.
        ///   - key: The decoded key, for messages.
        ///   - offset: The pair's offset in the input, for messages.
        /// - Throws: ``SatchelError/Code/typeMismatch`` when the key needs a container where a
        ///   value of another kind already is.
        mutating func insert(_ value: Value, at segments: [KeySegment], key: String, offset: Int) throws(SatchelError) {
            var container = 0
            var path: [KeyPathComponent] = []
            for position in segments.indices {
                let next = position + 1 < segments.count ? segments[position + 1] : nil
                switch segments[position] {
                case .key(let name):
                    // `container` is an object.
                    guard let next else {
                        try assign(value, to: name, in: container, path: path, key: key, offset: offset)
                        return
                    }
                    let wanted: Node.Kind = next == .append ? .array : .object
                    path.append(.key(name))
                    if let existing = nodes[container].members[name] {
                        guard nodes[existing].kind == wanted else {
                            throw mismatch(key: key, wanted: wanted, found: existing, path: path, offset: offset)
                        }
                        container = existing
                    } else {
                        let child = addNode(Node(kind: wanted))
                        nodes[container].keys.append(name)
                        nodes[container].members[name] = child
                        container = child
                    }
                case .append:
                    // `container` is an array.
                    guard let next else {
                        nodes[container].elements.append(addNode(Node(kind: .scalar, scalar: value)))
                        return
                    }
                    // `a[][b]=…` fills the last object until it already has the key (Rack).
                    if next != .append, let last = nodes[container].elements.last, nodes[last].kind == .object,
                        !hasPath(from: last, segments[(position + 1)...])
                    {
                        path.append(.index(nodes[container].elements.count - 1))
                        container = last
                    } else {
                        let child = addNode(Node(kind: next == .append ? .array : .object))
                        nodes[container].elements.append(child)
                        path.append(.index(nodes[container].elements.count - 1))
                        container = child
                    }
                }
            }
        }

        /// The rebuilt object.
        ///
        /// - Parameter indexedKeysAsArrays: Whether nested objects keyed exactly `"0"` to `"n-1"`
        ///   become arrays.
        func value(indexedKeysAsArrays: Bool) -> Value {
            value(of: 0, indexedKeysAsArrays: indexedKeysAsArrays)
        }

        // MARK: - Private

        private mutating func addNode(_ node: Node) -> Int {
            nodes.append(node)
            return nodes.count - 1
        }

        /// Sets the member `name` of the object `container` to a scalar.
        private mutating func assign(
            _ value: Value, to name: String, in container: Int, path: [KeyPathComponent], key: String, offset: Int
        ) throws(SatchelError) {
            guard let existing = nodes[container].members[name] else {
                let child = addNode(Node(kind: .scalar, scalar: value))
                nodes[container].keys.append(name)
                nodes[container].members[name] = child
                return
            }
            switch (nodes[existing].kind, duplicateKeys) {
            case (.scalar, .lastWins):
                nodes[existing].scalar = value
            case (.scalar, .collectIntoArray):
                let first = addNode(Node(kind: .scalar, scalar: nodes[existing].scalar))
                let second = addNode(Node(kind: .scalar, scalar: value))
                nodes[existing] = Node(kind: .array, elements: [first, second])
            case (.array, .collectIntoArray):
                nodes[existing].elements.append(addNode(Node(kind: .scalar, scalar: value)))
            case (.array, .lastWins), (.object, _):
                throw mismatch(key: key, wanted: .scalar, found: existing, path: path + [.key(name)], offset: offset)
            }
        }

        /// Whether the object `node` already has the member at `segments` (all
        /// ``KeySegment/key(_:)``); never for segments that append (Rack's `params_hash_has_key?`).
        private func hasPath(from node: Int, _ segments: ArraySlice<KeySegment>) -> Bool {
            var current = node
            for segment in segments {
                guard case .key(let name) = segment, nodes[current].kind == .object,
                    let child = nodes[current].members[name]
                else { return false }
                current = child
            }
            return true
        }

        private func mismatch(
            key: String, wanted: Node.Kind, found: Int, path: [KeyPathComponent], offset: Int
        ) -> SatchelError {
            let needs =
                switch wanted {
                case .scalar: "a single value"
                case .object: "an object"
                case .array: "an array"
                }
            let has =
                switch nodes[found].kind {
                case .scalar: "a \(nodes[found].scalar.kindName)"
                case .object: "an object"
                case .array: "an array"
                }
            let rendered = KeyPathComponent.render(path)
            return SatchelError(
                .typeMismatch,
                "key \(FormReader.quote(key)) needs \(needs) at \(rendered), which already holds \(has) from an earlier pair",
                offset: offset, keyPath: rendered)
        }

        private func value(of index: Int, indexedKeysAsArrays: Bool) -> Value {
            let node = nodes[index]
            switch node.kind {
            case .scalar:
                return node.scalar
            case .array:
                return .array(node.elements.map { value(of: $0, indexedKeysAsArrays: indexedKeysAsArrays) })
            case .object:
                if indexedKeysAsArrays && index != 0, let elements = Self.indexedElements(of: node) {
                    return .array(elements.map { value(of: $0, indexedKeysAsArrays: indexedKeysAsArrays) })
                }
                var object = ValueObject(minimumCapacity: node.keys.count)
                for key in node.keys {
                    if let child = node.members[key] {
                        object[key] = value(of: child, indexedKeysAsArrays: indexedKeysAsArrays)
                    }
                }
                return .object(object)
            }
        }

        /// The members of an object in index order when its keys are exactly `"0"` to `"n-1"`
        /// (decimal, no leading zeros), else `nil`.
        private static func indexedElements(of node: Node) -> [Int]? {
            let count = node.keys.count
            guard count > 0 else { return nil }
            var elements = [Int](repeating: -1, count: count)
            for key in node.keys {
                let digits = key.utf8
                guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1,
                    digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                    let position = Int(key), position < count, let child = node.members[key]
                else { return nil }
                elements[position] = child
            }
            return elements
        }
    }
}
