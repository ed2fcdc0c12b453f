// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// One event of an XML document as a view of the parser's buffers, for
/// ``XMLEventReader/init(limits:encoding:viewHandler:)``: receiving it makes nothing, and names,
/// attributes and text become Swift values only when asked for.
///
/// ```swift
/// var titles: [String] = []
/// let parser = XMLEventReader(viewHandler: { view in
///     if view.kind == .startElement, view.name?.localName == "item",
///         let title = view.value(ofAttribute: "title")
///     {
///         titles.append(title)
///     }
/// })
/// ```
///
/// A view is valid only while the handler that received it runs: copy what you need
/// (``event``, ``text``, ``attributes``). Using a view after its handler has returned stops the
/// program, as an out-of-range index does.
public struct XMLEventView {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// An element starts (``name``, ``attributes``, ``namespaces``).
        case startElement
        /// An element ends (``name``).
        case endElement
        /// Character data (``text``), one event per run however it arrived.
        case text
        /// The content of CDATA sections (``text``).
        case cdata
        /// A comment (``text``).
        case comment
        /// A processing instruction (``target``, and its data as ``text``).
        case processingInstruction
    }

    /// What happened.
    public let kind: Kind
    private let context: XMLParseContext
    private let generation: Int

    init(kind: Kind, context: XMLParseContext) {
        self.kind = kind
        self.context = context
        self.generation = context.viewGeneration
    }

    /// The event's data, checked to be the current event's.
    ///
    /// The check traps, as an index out of range does: only the caller's Swift code can make a
    /// view stale (by keeping it past its handler), never the document, and no C or Python entry
    /// point hands views out.
    private var current: XMLParseContext.CurrentEvent {
        precondition(
            context.viewGeneration == generation, "an XMLEventView was used after the handler that received it returned"
        )
        return context.currentEvent
    }

    /// The element's name for ``Kind/startElement`` and ``Kind/endElement``; `nil` otherwise.
    public var name: XMLName? {
        let event = current
        guard kind == .startElement || kind == .endElement else { return nil }
        return context.name(event.localName, event.prefix, event.uri)
    }

    /// The number of attributes of a starting element (0 for other events).
    public var attributeCount: Int { current.attributeCount }

    /// The attribute at `index`, in document order.
    /// - Precondition: `index` is in `0..<attributeCount`.
    public func attribute(at index: Int) -> XMLAttribute {
        let event = current
        // An index out of range is the caller's mistake, as with an array, whatever the document
        // holds (`attributeCount` says how many there are); it traps like one.
        guard let attributes = event.attributes, index >= 0, index < event.attributeCount else {
            preconditionFailure("attribute index \(index) out of range")
        }
        return attribute(attributes + 5 * index)
    }

    /// The attributes of a starting element, in document order (empty for other events).
    public var attributes: [XMLAttribute] { attributes(of: current) }

    /// The value of the attribute whose local name is `localName` (and whose namespace is
    /// `namespaceURI`: `nil` for an attribute without a prefix), compared byte for byte without
    /// making a string of each name.
    /// - Complexity: O(n) in the number and length of the attributes.
    public func value(ofAttribute localName: String, namespaceURI: String? = nil) -> String? {
        let event = current
        guard let attributes = event.attributes else { return nil }
        for index in 0..<event.attributeCount {
            let fields = attributes + 5 * index
            guard Self.equals(fields[0], localName), Self.equals(fields[2], namespaceURI) else { continue }
            return Self.string(from: fields[3], to: fields[4])
        }
        return nil
    }

    /// The namespaces a starting element declares, in document order (empty for other events).
    public var namespaces: [XMLNamespaceDeclaration] { namespaces(of: current) }

    /// The target of a processing instruction; `nil` for other events.
    public var target: String? {
        let event = current
        return kind == .processingInstruction ? XMLLibrary.string(event.target) ?? "" : nil
    }

    /// The text of a text, CDATA or comment event, or a processing instruction's data (empty
    /// when it has none); empty for elements.
    public var text: String { String(decoding: current.text, as: UTF8.self) }

    /// Calls `body` with the UTF-8 bytes of ``text``, without making a string.
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(current.text)
    }

    /// The event as an ``XMLEvent`` that owns its strings.
    public var event: XMLEvent {
        let event = current
        switch kind {
        case .startElement:
            return .startElement(
                context.name(event.localName, event.prefix, event.uri), attributes: attributes(of: event),
                namespaces: namespaces(of: event))
        case .endElement: return .endElement(context.name(event.localName, event.prefix, event.uri))
        case .text: return .text(String(decoding: event.text, as: UTF8.self))
        case .cdata: return .cdata(String(decoding: event.text, as: UTF8.self))
        case .comment: return .comment(String(decoding: event.text, as: UTF8.self))
        case .processingInstruction:
            return .processingInstruction(
                target: XMLLibrary.string(event.target) ?? "", data: String(decoding: event.text, as: UTF8.self))
        }
    }

    /// The attribute whose five SAX2 fields start at `fields`.
    private func attribute(_ fields: UnsafeMutablePointer<UnsafePointer<xmlChar>?>) -> XMLAttribute {
        XMLAttribute(
            name: context.name(fields[0], fields[1], fields[2]), value: Self.string(from: fields[3], to: fields[4]))
    }

    private func attributes(of event: XMLParseContext.CurrentEvent) -> [XMLAttribute] {
        guard event.attributeCount > 0, let attributes = event.attributes else { return [] }
        var list: [XMLAttribute] = []
        list.reserveCapacity(event.attributeCount)
        for index in 0..<event.attributeCount { list.append(attribute(attributes + 5 * index)) }
        return list
    }

    private func namespaces(of event: XMLParseContext.CurrentEvent) -> [XMLNamespaceDeclaration] {
        guard event.namespaceCount > 0, let namespaces = event.namespaces else { return [] }
        var list: [XMLNamespaceDeclaration] = []
        list.reserveCapacity(event.namespaceCount)
        for index in 0..<event.namespaceCount {
            list.append(
                XMLNamespaceDeclaration(
                    prefix: context.interned(namespaces[2 * index]),
                    uri: context.interned(namespaces[2 * index + 1]) ?? ""))
        }
        return list
    }

    /// A string from libxml2's value bounds (an attribute value is not NUL-terminated).
    private static func string(from start: UnsafePointer<xmlChar>?, to end: UnsafePointer<xmlChar>?) -> String {
        guard let start, let end else { return "" }
        return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
    }

    /// Whether libxml2's NUL-terminated `text` is `string` (both `nil` counts as equal).
    private static func equals(_ text: UnsafePointer<xmlChar>?, _ string: String?) -> Bool {
        guard let text, let string else { return text == nil && string == nil }
        var index = 0
        for byte in string.utf8 {
            // The terminator ends the comparison: no read goes past it.
            if text[index] == 0 || text[index] != byte { return false }
            index += 1
        }
        return text[index] == 0
    }
}
