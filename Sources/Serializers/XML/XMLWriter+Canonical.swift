// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

extension XMLWriter {
    /// Writes the canonical form `{"children": […]}` of a document: exactly one element, with
    /// comments and processing instructions (and whitespace, dropped) around it.
    mutating func writeCanonicalDocument(_ document: Value, path: String) throws {
        guard let children = document["children"] else {
            throw SatchelError(.unencodableValue, "an XML document needs a \"children\" array", keyPath: path)
        }
        try writeCanonicalChildren(children, path: "\(path).children", topLevel: true)
    }

    /// Writes canonical nodes: strings as text, element objects (with `"name"`), and
    /// `{"cdata"}`, `{"comment"}`, `{"target", "data"}`.
    mutating func writeCanonicalChildren(_ children: Value, path: String, topLevel: Bool) throws {
        guard let nodes = children.arrayValue else {
            throw SatchelError(
                .unencodableValue, "\"children\" must be an array, not \(children.kindName)", keyPath: path)
        }
        var elements = 0
        var written = 0
        for (index, node) in nodes.enumerated() {
            let nodePath = "\(path)[\(index)]"
            switch node {
            case .string(let text):
                if topLevel {
                    guard text.unicodeScalars.allSatisfy({ " \t\r\n".unicodeScalars.contains($0) }) else {
                        throw SatchelError(.unencodableValue, "text outside the root element", keyPath: nodePath)
                    }
                } else {
                    try appendEscaped(text, inAttribute: false, path: nodePath)
                }
            case .object(let members):
                if topLevel && written > 0 { appendMarkup("\n") }
                written += 1
                if members["name"] != nil {
                    elements += 1
                    if topLevel && elements > 1 {
                        throw SatchelError(.unencodableValue, "a document has one root element", keyPath: nodePath)
                    }
                    try writeCanonicalElement(members, path: nodePath)
                } else {
                    try writeCanonicalLeaf(members, path: nodePath)
                }
            default:
                throw SatchelError(
                    .unencodableValue, "an XML node is a string or an object, not \(node.kindName)", keyPath: nodePath)
            }
        }
        if topLevel && elements == 0 {
            throw SatchelError(.unencodableValue, "a document needs a root element", keyPath: path)
        }
    }

    /// Writes an element object: `name`, and optionally `namespace`, `namespaces`,
    /// `attributes`, `children`. A `namespace` not bound to the name's prefix in scope is
    /// declared on the element.
    private mutating func writeCanonicalElement(_ element: ValueObject, path: String) throws {
        guard let name = element["name"]?.stringValue else {
            throw SatchelError(.unencodableValue, "an element's \"name\" must be a string", keyPath: "\(path).name")
        }
        var declarations: [String: String] = [:]
        for (prefix, uri) in element["namespaces"]?.objectValue ?? [:] {
            guard let uri = uri.stringValue else {
                throw SatchelError(
                    .unencodableValue, "a namespace URI must be a string", keyPath: "\(path).namespaces.\(prefix)")
            }
            declarations[prefix] = uri
        }
        let prefix = name.firstIndex(of: ":").map { String(name[..<$0]) } ?? ""
        if let wanted = element["namespace"].map({ $0.stringValue ?? "" }) {
            let bound = declarations[prefix] ?? namespace(boundTo: prefix) ?? ""
            if wanted != bound { declarations[prefix] = wanted }
        }
        var attributes: [(String, String)] = []
        for (attribute, value) in element["attributes"]?.objectValue ?? [:] {
            guard let text = value.stringValue else {
                throw SatchelError(
                    .unencodableValue, "an attribute value must be a string, not \(value.kindName)",
                    keyPath: "\(path).attributes.\(attribute)")
            }
            attributes.append((attribute, text))
        }
        try openElement(name, declarations: declarations, attributes: attributes, path: path)
        if let children = element["children"] {
            try writeCanonicalChildren(children, path: "\(path).children", topLevel: false)
        }
        closeElement(name)
    }

    /// Writes `{"cdata": …}`, `{"comment": …}` or `{"target": …, "data": …}`.
    private mutating func writeCanonicalLeaf(_ node: ValueObject, path: String) throws {
        if let text = node["cdata"]?.stringValue {
            for scalar in text.unicodeScalars { try Self.checkCharacter(scalar, path: path) }
            appendMarkup("<![CDATA[" + text.replacing("]]>", with: "]]]]><![CDATA[>") + "]]>")
        } else if let text = node["comment"]?.stringValue {
            guard !text.contains("--"), !text.hasSuffix("-") else {
                throw SatchelError(.unencodableValue, "a comment cannot contain '--' or end with '-'", keyPath: path)
            }
            for scalar in text.unicodeScalars { try Self.checkCharacter(scalar, path: path) }
            appendMarkup("<!--\(text)-->")
        } else if let target = node["target"]?.stringValue {
            let data = node["data"]?.stringValue ?? ""
            guard xmlValidateNCName(target, 0) == 0, target.lowercased() != "xml", !data.contains("?>") else {
                throw SatchelError(
                    .unencodableValue, "'\(target)' with this data is not a valid processing instruction", keyPath: path
                )
            }
            for scalar in data.unicodeScalars { try Self.checkCharacter(scalar, path: path) }
            appendMarkup(data.isEmpty ? "<?\(target)?>" : "<?\(target) \(data)?>")
        } else {
            throw SatchelError(
                .unencodableValue, "an XML node object needs \"name\", \"cdata\", \"comment\" or \"target\"",
                keyPath: path)
        }
    }
}
