// SPDX-License-Identifier: Apache-2.0
/// An attribute of an element in an ``XMLEvent/startElement(_:attributes:namespaces:)`` event.
public struct XMLAttribute: Sendable, Hashable {
    /// Its name.
    public var name: XMLName
    /// Its value, entity and character references replaced.
    public var value: String

    /// Creates an attribute.
    public init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}
