// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

extension XMLDocumentPayload {
    /// The document as a plain value: `{"children": [node, …]}`, where a node is an element
    /// `{"name", "namespace", "namespaces", "attributes", "children"}`, a string (text), or
    /// `{"cdata": …}`, `{"comment": …}`, `{"target": …, "data": …}` (see Sources/Satchel/Satchel.docc/RegistryAndSerializers.md).
    /// - Complexity: O(n) in the size of the tree; computed on every call.
    public var canonicalValue: Value {
        .object([
            "children": .array(
                Self.children(of: UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)))
        ])
    }

    /// The canonical values of `node`'s children; adjacent text becomes one string.
    static func children(of node: xmlNodePtr) -> [Value] {
        var values: [Value] = []
        var child = node.pointee.children
        while let current = child {
            child = current.pointee.next
            guard let value = value(of: current) else { continue }
            if case .string(let text) = value, case .string(let previous)? = values.last {
                values[values.count - 1] = .string(previous + text)
            } else {
                values.append(value)
            }
        }
        return values
    }

    /// The canonical value of one node; `nil` for nodes outside the form (DTD, entity
    /// declarations).
    static func value(of node: xmlNodePtr) -> Value? {
        switch node.pointee.type {
        case XML_ELEMENT_NODE:
            return element(node)
        case XML_TEXT_NODE:
            return .string(content(of: node))
        case XML_CDATA_SECTION_NODE:
            return .object(["cdata": .string(content(of: node))])
        case XML_COMMENT_NODE:
            return .object(["comment": .string(content(of: node))])
        case XML_PI_NODE:
            return .object([
                "target": .string(XMLLibrary.string(node.pointee.name) ?? ""), "data": .string(content(of: node)),
            ])
        case XML_ATTRIBUTE_NODE:
            return .string(content(of: node))
        case XML_DOCUMENT_NODE:
            return .object(["children": .array(children(of: node))])
        default:
            return nil
        }
    }

    /// An element's canonical object.
    static func element(_ node: xmlNodePtr) -> Value {
        var declarations = ValueObject()
        var namespace = node.pointee.nsDef
        while let current = namespace {
            declarations[XMLLibrary.string(current.pointee.prefix) ?? ""] = .string(
                XMLLibrary.string(current.pointee.href) ?? "")
            namespace = current.pointee.next
        }
        var attributes = ValueObject()
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = qualifiedName(prefix: current.pointee.ns?.pointee.prefix, local: current.pointee.name)
            attributes[name] = .string(
                content(of: UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)))
            attribute = current.pointee.next
        }
        return .object([
            "name": .string(qualifiedName(of: node)),
            "namespace": XMLLibrary.string(node.pointee.ns?.pointee.href).map(Value.string) ?? .null,
            "namespaces": .object(declarations),
            "attributes": .object(attributes),
            "children": .array(children(of: node)),
        ])
    }

    /// `prefix:name` or `name` of an element.
    static func qualifiedName(of node: xmlNodePtr) -> String {
        qualifiedName(prefix: node.pointee.ns?.pointee.prefix, local: node.pointee.name)
    }

    static func qualifiedName(prefix: UnsafePointer<xmlChar>?, local: UnsafePointer<xmlChar>?) -> String {
        let name = XMLLibrary.string(local) ?? ""
        guard let prefix = XMLLibrary.string(prefix) else { return name }
        return "\(prefix):\(name)"
    }

    /// The text content of a node (`xmlNodeGetContent`).
    static func content(of node: xmlNodePtr) -> String {
        if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE
            || node.pointee.type == XML_COMMENT_NODE || node.pointee.type == XML_PI_NODE
        {
            return XMLLibrary.string(node.pointee.content) ?? ""
        }
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { XMLLibrary.free(content) }
        return String(cString: content)
    }
}
