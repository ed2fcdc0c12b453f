// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2

/// What expanding each internal entity costs: how many entity references one reference to it
/// expands (itself and every nested one) and how many bytes of text it produces.
///
/// libxml2 expands an entity once and copies the result for later references, so counting its
/// callbacks would undercount; the cost of an entity is instead computed from its replacement
/// text, once per entity, and charged on every reference in the document. An entity whose
/// expansion refers back to itself, or nests deeper than ``maxNesting``, has no cost (`nil`):
/// the caller treats it as over the limit.
struct XMLEntityBudget {
    /// The cost of one reference.
    struct Cost {
        /// References expanded, the entity itself included.
        var references: Int
        /// Bytes of replacement text produced.
        var bytes: Int
    }

    /// Deepest chain of entities inside entities accepted (libxml2's own bound without
    /// `XML_PARSE_HUGE`).
    static let maxNesting = 40

    private var costs: [String: Cost] = [:]
    private var inProgress: Set<String> = []

    /// The cost of referring to `entity` once; `nil` for a reference loop or nesting deeper than
    /// ``maxNesting``.
    /// - Complexity: O(length of the replacement texts involved) the first time, O(1) after.
    mutating func cost(of entity: xmlEntityPtr, in document: xmlDocPtr?, nesting: Int = 0) -> Cost? {
        guard let namePointer = entity.pointee.name else { return Cost(references: 1, bytes: 0) }
        let name = String(cString: namePointer)
        if let known = costs[name] { return known }
        guard nesting < Self.maxNesting, inProgress.insert(name).inserted else { return nil }
        defer { inProgress.remove(name) }
        var cost = Cost(references: 1, bytes: Int(entity.pointee.length))
        if let content = entity.pointee.content {
            let count = Int(entity.pointee.length)
            var index = 0
            while index < count {
                guard content[index] == UInt8(ascii: "&"), index + 1 < count, content[index + 1] != UInt8(ascii: "#")
                else {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < count && content[end] != UInt8(ascii: ";") { end += 1 }
                guard end < count else { break }
                let nestedName = String(
                    decoding: UnsafeBufferPointer(start: content + index + 1, count: end - index - 1), as: UTF8.self)
                let nested = nestedName.withCString {
                    xmlGetDocEntity(document, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self))
                }
                if let nested, nested.pointee.etype == XML_INTERNAL_GENERAL_ENTITY {
                    guard let inner = self.cost(of: nested, in: document, nesting: nesting + 1) else { return nil }
                    cost.references = Self.add(cost.references, inner.references)
                    cost.bytes = Self.add(cost.bytes - (end - index + 1), inner.bytes)
                } else {
                    cost.references = Self.add(cost.references, 1)
                }
                index = end + 1
            }
        }
        costs[name] = cost
        return cost
    }

    /// `a + b`, saturating at `Int.max / 2` so sums of sums never overflow.
    static func add(_ a: Int, _ b: Int) -> Int {
        min(Int.max / 2, max(0, a) + max(0, b))
    }
}
