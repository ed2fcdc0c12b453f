// SPDX-License-Identifier: Apache-2.0
/// A namespace-aware element or attribute name.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The name without its prefix.
    public var localName: String
    /// The prefix it was written with, if any.
    public var prefix: String?
    /// The namespace it belongs to, if any.
    public var namespaceURI: String?

    /// Creates a name.
    public init(localName: String, prefix: String? = nil, namespaceURI: String? = nil) {
        self.localName = localName
        self.prefix = prefix
        self.namespaceURI = namespaceURI
    }

    /// The name as written: `prefix:localName`, or `localName`.
    public var qualifiedName: String {
        if let prefix { return "\(prefix):\(localName)" }
        return localName
    }

    /// ``qualifiedName``.
    public var description: String { qualifiedName }
}
