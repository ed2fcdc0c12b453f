// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// The state of an elements parse (``XMLParseContext/Mode/elements(_:)``): which path steps the
/// open elements reached, whether the parse is inside a matched element, and where its records
/// go. libxml2 builds the tree as usual; everything outside the matched elements is freed as
/// soon as its element ends, and each matched element is handed to ``deliver`` at its end tag,
/// then freed.
final class XMLElementSelection {
    let path: XMLElementPath
    /// The steps reached by each open element (the document's first).
    private var active: [UInt64] = [1]
    /// The depth of the matched element the parse is in (1 for the root), or 0.
    private(set) var matchDepth = 0
    /// The input offset where the current match started.
    private var matchStart = 0
    /// How many elements matched.
    private(set) var matches = 0
    /// Set by the reader while it feeds: turns a matched element into a record and hands it
    /// over (an error stops the parse).
    var deliver: ((xmlNodePtr) throws -> Void)?

    init(path: XMLElementPath) {
        self.path = path
    }

    /// Whether the parse is inside a matched element.
    var isInsideMatch: Bool { matchDepth != 0 }

    /// An element started at `depth` (after libxml2 made its node).
    func enter(depth: Int, local: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?, offset: Int) {
        guard matchDepth == 0 else { return }
        let reached = path.advance(active[active.count - 1], local: local, uri: uri)
        active.append(reached)
        if path.isComplete(reached) {
            matchDepth = depth
            matchStart = offset
        }
    }

    /// The input read since the current match started, at input offset `offset`.
    func matchBytes(at offset: Int) -> Int {
        matchDepth == 0 ? 0 : offset - matchStart
    }

    /// The element `node` at `depth` ended (libxml2 has popped it): hands it over when it is a
    /// match, and frees it unless it is inside one.
    /// - Throws: what ``deliver`` throws.
    func leave(_ node: xmlNodePtr?, depth: Int) throws {
        if matchDepth != 0 && depth > matchDepth { return }  // part of the match: kept
        active.removeLast()
        defer {
            if let node {
                xmlUnlinkNode(node)
                xmlFreeNode(node)
            }
        }
        guard depth == matchDepth else { return }
        matchDepth = 0
        matches += 1
        if let node { try deliver?(node) }
    }
}
