import CLibXML2
import SerializerRegistry

/// Writes a ``Value`` as an XML document (UTF-8, with an XML declaration), for
/// ``XMLSerializer``. The mapping is in docs/XML.md:
///
/// - an ``XMLDocumentPayload`` is written as it is;
/// - `{"$xml": {"children": […]}}`, the canonical form, is written node for node;
/// - any other value is mapped: object members become child elements (`"@name"` members
///   attributes, a `"#text"` member text), an array repeats its element, scalars are text.
struct XMLWriter {
    /// The root element of a mapped value that is not an object with one member.
    var rootElementName: String

    /// One element's namespace bindings in scope, innermost last.
    fileprivate var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
    fileprivate var output: [UInt8] = []
    /// Whether the last start tag still lacks its `>`.
    fileprivate var startTagIsOpen = false

    init(rootElementName: String) {
        self.rootElementName = rootElementName
    }

    /// The document for `value`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` with the key path of what XML cannot
    ///   hold (an invalid name, an undeclared prefix, a character XML 1.0 forbids, …).
    mutating func write(_ value: Value) throws -> [UInt8] {
        if case .payload(let payload) = value, let document = payload as? XMLDocumentPayload {
            return document.xmlBytes
        }
        output = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        if case .object(let members) = value, members.count == 1, let canonical = members[XMLDocumentPayload.kind] {
            try writeCanonicalDocument(canonical, path: "$.$xml")
        } else if case .object(let members) = value, members.count == 1, let member = members.elements.first,
                  !member.key.hasPrefix("@"), !member.key.hasPrefix("#"), member.value.arrayValue == nil {
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
                            throw SatchelError(.unencodableValue, "an array directly inside an array has no XML form", keyPath: "\(memberPath)[\(index)]")
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
                try writeCanonicalChildren(document.canonicalValue["children"] ?? .array([]), path: path, topLevel: false)
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
            throw SatchelError(.unencodableValue, "an attribute or text member must be a scalar, not \(value.kindName)", keyPath: path)
        }
    }
}

// MARK: - Writing primitives

extension XMLWriter {
    /// Writes a start tag (left open: content ends it with `>`, no content makes it `/>`) and
    /// pushes its namespace scope.
    mutating func openElement(_ name: String, declarations: [String: String], attributes: [(String, String)], path: String) throws {
        var scope = scopes.last ?? [:]
        for (prefix, uri) in declarations { scope[prefix] = uri }
        for (attribute, value) in attributes where attribute == "xmlns" || attribute.hasPrefix("xmlns:") {
            scope[attribute == "xmlns" ? "" : String(attribute.dropFirst(6))] = value
        }
        try checkName(name, scope: scope, isAttribute: false, path: path)
        endStartTag()
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: name.utf8)
        for (prefix, uri) in declarations.sorted(by: { $0.key < $1.key }) {
            try appendAttribute(prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)", uri, path: path)
        }
        for (attribute, value) in attributes {
            if !(attribute == "xmlns" || attribute.hasPrefix("xmlns:")) {
                try checkName(attribute, scope: scope, isAttribute: true, path: "\(path).@\(attribute)")
            }
            try appendAttribute(attribute, value, path: "\(path).@\(attribute)")
        }
        startTagIsOpen = true
        scopes.append(scope)
    }

    /// Writes an end tag (or ends the start tag as an empty-element tag) and pops the element's
    /// namespace scope.
    mutating func closeElement(_ name: String) {
        scopes.removeLast()
        if startTagIsOpen {
            output.append(contentsOf: "/>".utf8)
            startTagIsOpen = false
            return
        }
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: name.utf8)
        output.append(UInt8(ascii: ">"))
    }

    /// Ends a start tag left open for attributes, before content is written.
    mutating func endStartTag() {
        if startTagIsOpen {
            output.append(UInt8(ascii: ">"))
            startTagIsOpen = false
        }
    }

    /// The namespace URI bound to `prefix` in the innermost scope.
    func namespace(boundTo prefix: String) -> String? {
        scopes.last?[prefix]
    }

    /// Checks that `name` is a qualified XML name whose prefix is bound in `scope`.
    func checkName(_ name: String, scope: [String: String], isAttribute: Bool, path: String) throws {
        guard !name.isEmpty, xmlValidateQName(name, 0) == 0 else {
            throw SatchelError(.unencodableValue, "'\(name)' is not an XML name", keyPath: path)
        }
        if let colon = name.firstIndex(of: ":") {
            let prefix = String(name[..<colon])
            guard let uri = scope[prefix], !uri.isEmpty else {
                throw SatchelError(.unencodableValue, "the prefix '\(prefix)' of '\(name)' is not declared (add an xmlns:\(prefix) attribute)", keyPath: path)
            }
        }
    }

    /// Writes ` name="value"`.
    mutating func appendAttribute(_ name: String, _ value: String, path: String) throws {
        output.append(UInt8(ascii: " "))
        output.append(contentsOf: name.utf8)
        output.append(contentsOf: "=\"".utf8)
        try appendEscaped(value, inAttribute: true, path: path)
        output.append(UInt8(ascii: "\""))
    }

    /// Writes raw markup.
    mutating func appendMarkup(_ text: String) {
        endStartTag()
        output.append(contentsOf: text.utf8)
    }

    /// Writes `text` escaped for content or for a double-quoted attribute value.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for a character XML 1.0 forbids.
    mutating func appendEscaped(_ text: String, inAttribute: Bool, path: String) throws {
        if !inAttribute { endStartTag() }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".utf8)
            case "<": output.append(contentsOf: "&lt;".utf8)
            case ">": output.append(contentsOf: "&gt;".utf8)
            case "\"" where inAttribute: output.append(contentsOf: "&quot;".utf8)
            case "\r": output.append(contentsOf: "&#13;".utf8)
            case "\t" where inAttribute: output.append(contentsOf: "&#9;".utf8)
            case "\n" where inAttribute: output.append(contentsOf: "&#10;".utf8)
            default:
                try Self.checkCharacter(scalar, path: path)
                output.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    /// Throws for a character outside XML 1.0's `Char` production.
    static func checkCharacter(_ scalar: Unicode.Scalar, path: String) throws {
        let value = scalar.value
        let allowed = value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || value >= 0x10000
        if !allowed {
            throw SatchelError(.unencodableValue, "the character U+\(String(value, radix: 16, uppercase: true)) cannot appear in XML 1.0", keyPath: path)
        }
    }
}
