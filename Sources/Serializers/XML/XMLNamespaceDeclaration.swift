// SPDX-License-Identifier: Apache-2.0
/// A namespace declaration (`xmlns="uri"` or `xmlns:prefix="uri"`) on an element.
public struct XMLNamespaceDeclaration: Sendable, Hashable {
    /// The prefix declared; `nil` for the default namespace.
    public var prefix: String?
    /// The namespace URI; empty when `xmlns=""` undeclares the default namespace.
    public var uri: String

    /// Creates a declaration.
    public init(prefix: String?, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}
