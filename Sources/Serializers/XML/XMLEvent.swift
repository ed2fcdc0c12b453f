// SPDX-License-Identifier: Apache-2.0
/// One event of an XML document, as ``XMLEventReader`` delivers it.
///
/// A run of text is one event however it arrived (chunks, entity expansions); adjacent CDATA
/// sections are one ``cdata(_:)`` event. Whitespace is reported as it appears; nothing outside
/// the root element but comments and processing instructions is.
public enum XMLEvent: Sendable, Hashable {
    /// An element starts, with its attributes and the namespaces it declares, in document order.
    case startElement(XMLName, attributes: [XMLAttribute], namespaces: [XMLNamespaceDeclaration])
    /// An element ends.
    case endElement(XMLName)
    /// Character data, entity and character references replaced.
    case text(String)
    /// The content of a CDATA section.
    case cdata(String)
    /// A comment's text.
    case comment(String)
    /// A processing instruction (`<?target data?>`); `data` is empty when there is none.
    case processingInstruction(target: String, data: String)
}
