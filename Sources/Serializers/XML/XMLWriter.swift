// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// Writes a ``Value`` as an XML document (UTF-8, with an XML declaration), for
/// ``XMLRequestSerializer``. The mapping is in Sources/Satchel/Satchel.docc/RegistryAndSerializers.md:
///
/// - an ``XMLDocumentPayload`` is written as it is;
/// - `{"$xml": {"children": […]}}`, the canonical form, is written node for node;
/// - any other value is mapped: object members become child elements (`"@name"` members
///   attributes, a `"#text"` member text), an array repeats its element, scalars are text.
struct XMLWriter {
    /// The root element of a mapped value that is not an object with one member.
    var rootElementName: String

    /// One element's namespace bindings in scope, innermost last.
    var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
    var output: [UInt8] = []
    /// Whether the last start tag still lacks its `>`.
    var startTagIsOpen = false

    init(rootElementName: String) {
        self.rootElementName = rootElementName
    }

    /// The document for `value`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` with the key path of what XML cannot
    ///   hold (an invalid name, an undeclared prefix, a character XML 1.0 forbids, …).
    mutating func write(_ value: Value) throws(SatchelError) -> [UInt8] {
        do {
            return try writeDocument(value)
        } catch {
            // The writing functions recurse with untyped throws, which keeps each level's stack
            // frame small (a typed SatchelError needs room in every caller's frame); they throw
            // only SatchelErrors.
            throw SatchelError.wrap(error)
        }
    }

    private mutating func writeDocument(_ value: Value) throws -> [UInt8] {
        if case .payload(let payload) = value, let document = payload as? XMLDocumentPayload {
            return document.xmlBytes
        }
        output = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        if case .object(let members) = value, members.count == 1, let canonical = members[XMLDocumentPayload.kind] {
            try writeCanonicalDocument(canonical, path: "$.$xml")
        } else if case .object(let members) = value, members.count == 1, let member = members.elements.first,
            !member.key.hasPrefix("@"), !member.key.hasPrefix("#"), member.value.arrayValue == nil
        {
            try writeMapped(name: member.key, member.value, path: "$.\(member.key)")
        } else {
            try writeMapped(name: rootElementName, value, path: "$")
        }
        return output
    }

    // MARK: The mapping of plain values

    /// Writes `<name>` with `value` as its content.
    private mutating func writeMapped(name: String, _ value: Value, path: String) throws {
        switch value {
        case .object(let members):
            var attributes: [(String, String)] = []
            var content: [(String, Value)] = []
            for (key, member) in members {
                if key.hasPrefix("@") {
                    attributes.append((String(key.dropFirst()), try scalarText(member, path: "\(path).\(key)")))
                } else {
                    content.append((key, member))
                }
            }
            try openElement(name, declarations: [:], attributes: attributes, path: path)
            for (key, member) in content {
                let memberPath = "\(path).\(key)"
                if key == "#text" {
                    try appendEscaped(try scalarText(member, path: memberPath), inAttribute: false, path: memberPath)
                } else if case .array(let items) = member {
                    for (index, item) in items.enumerated() {
                        if case .array = item {
                            throw SatchelError(
                                .unencodableValue, "an array directly inside an array has no XML form",
                                keyPath: "\(memberPath)[\(index)]")
                        }
                        try writeMapped(name: key, item, path: "\(memberPath)[\(index)]")
                    }
                } else {
                    try writeMapped(name: key, member, path: memberPath)
                }
            }
            closeElement(name)
        case .array(let items):
            try openElement(name, declarations: [:], attributes: [], path: path)
            for (index, item) in items.enumerated() {
                try writeMapped(name: "item", item, path: "\(path)[\(index)]")
            }
            closeElement(name)
        case .payload(let payload):
            if let document = payload as? XMLDocumentPayload {
                try openElement(name, declarations: [:], attributes: [], path: path)
                try writeCanonicalChildren(
                    document.canonicalValue["children"] ?? .array([]), path: path, topLevel: false)
                closeElement(name)
            } else {
                try writeMapped(name: name, payload.canonicalValue, path: path)
            }
        default:
            try openElement(name, declarations: [:], attributes: [], path: path)
            try appendEscaped(try scalarText(value, path: path), inAttribute: false, path: path)
            closeElement(name)
        }
    }

    /// The text of a scalar: strings as they are, numbers as JSON writes them (`NaN`, `INF`,
    /// `-INF` as XML Schema does), booleans `true`/`false`, null empty, bytes base64, dates ISO 8601.
    private func scalarText(_ value: Value, path: String) throws -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        case .double(let number):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number < 0 ? "-INF" : "INF" }
            return String(decoding: try JSONWriter().write(value), as: UTF8.self)
        case .bytes, .date:
            return value.canonicalForm.objectValue?.values.first?.stringValue ?? ""
        case .array, .object, .payload:
            throw SatchelError(
                .unencodableValue, "an attribute or text member must be a scalar, not \(value.kindName)", keyPath: path)
        }
    }
}
