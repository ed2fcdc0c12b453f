// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import Glibc
import SerializerRegistry

/// The elements an ``XMLElementReader`` hands over: a location path of element names, such as
/// `/feed/entry`, `/urlset/url` or `//item`.
///
/// - `/name` is a child of the step before (of the document, for the first step); `//name` is
///   any descendant of it.
/// - `name` matches an element of that local name in any namespace (Atom's `entry` in the Atom
///   namespace); `prefix:name` matches the namespace the caller's prefix map gives `prefix`
///   and the local name; `*` and `prefix:*` match any name.
/// - Matches do not nest: an element inside a matched element is part of that record.
struct XMLElementPath {
    struct Step {
        /// Whether the step is `//name` (any descendant) rather than `/name` (a child).
        var isDescendant: Bool
        /// The namespace URI the step requires, NUL-terminated; `nil` for any.
        var namespaceURI: [CChar]?
        /// The local name, NUL-terminated; `nil` for `*`.
        var localName: [CChar]?

        func matches(local: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) -> Bool {
            if let localName {
                guard let local, strcmp(UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self), localName) == 0
                else { return false }
            }
            guard let namespaceURI else { return true }
            guard let uri else { return namespaceURI == [0] }
            return strcmp(UnsafeRawPointer(uri).assumingMemoryBound(to: CChar.self), namespaceURI) == 0
        }
    }

    let text: String
    let steps: [Step]

    /// Parses `text` with the prefixes of `namespaces` (prefix → namespace URI).
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a path that does not start with `/`,
    ///   an empty step, a prefix the map lacks, or more than 63 steps.
    init(_ text: String, namespaces: [String: String]) throws(SatchelError) {
        self.text = text
        guard text.hasPrefix("/") else {
            throw SatchelError(.invalidArgument, "XML path \"\(text)\" must start with '/' or '//'")
        }
        var steps: [Step] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let isDescendant = rest.hasPrefix("//")
            rest = rest.dropFirst(isDescendant ? 2 : 1)
            let name = rest.prefix { $0 != "/" }
            rest = rest.dropFirst(name.count)
            guard !name.isEmpty, !name.contains(where: { " \t\n[]()@=\"'".contains($0) }) else {
                throw SatchelError(
                    .invalidArgument,
                    "XML path \"\(text)\": each step is a name, prefix:name or * (no predicates or attributes)")
            }
            let parts = name.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            var uri: [CChar]?
            if parts.count == 2 {
                guard let bound = namespaces[String(parts[0])] else {
                    throw SatchelError(
                        .invalidArgument, "XML path \"\(text)\": the prefix \"\(parts[0])\" is not in the namespace map"
                    )
                }
                uri = Array(bound.utf8CString)
            }
            let local = parts.last.map(String.init) ?? ""
            steps.append(
                Step(
                    isDescendant: isDescendant, namespaceURI: uri,
                    localName: local == "*" ? nil : Array(local.utf8CString)))
        }
        guard steps.count < 64 else {
            throw SatchelError(.invalidArgument, "XML path \"\(text)\" has more than 63 steps")
        }
        self.steps = steps
    }

    /// The steps reached inside an element that starts where `active` steps were reached (bit
    /// `i`: the first `i` steps are matched), given its names; bit `steps.count` set means the
    /// element matches the whole path.
    func advance(_ active: UInt64, local: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) -> UInt64 {
        var next: UInt64 = 0
        var remaining = active
        while remaining != 0 {
            let index = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            guard index < steps.count else { continue }
            let step = steps[index]
            if step.isDescendant { next |= 1 << index }  // the step may still match deeper
            if step.matches(local: local, uri: uri) { next |= 1 << (index + 1) }
        }
        return next
    }

    /// Whether `active` says the whole path is matched.
    func isComplete(_ active: UInt64) -> Bool {
        active & (1 << steps.count) != 0
    }
}
