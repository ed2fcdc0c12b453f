// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Builds the canonical value of a document (`{"$xml": {"children": […]}}`, Sources/Satchel/Satchel.docc/RegistryAndSerializers.md) from
/// ``XMLEvent``s, without a DOM: the same value ``XMLDocumentPayload/canonicalValue`` gives.
final class XMLTreeBuilder {
    private struct Frame {
        var name: XMLName
        var attributes: ValueObject
        var namespaces: ValueObject
        var children: [Value] = []
    }

    private var stack: [Frame] = []
    private var top: [Value] = []

    /// Adds one event to the tree.
    func handle(_ event: XMLEvent) {
        switch event {
        case .startElement(let name, let attributes, let namespaces):
            var attributeObject = ValueObject(minimumCapacity: attributes.count)
            for attribute in attributes { attributeObject[attribute.name.qualifiedName] = .string(attribute.value) }
            var namespaceObject = ValueObject(minimumCapacity: namespaces.count)
            for declaration in namespaces { namespaceObject[declaration.prefix ?? ""] = .string(declaration.uri) }
            stack.append(Frame(name: name, attributes: attributeObject, namespaces: namespaceObject))
        case .endElement:
            guard let frame = stack.popLast() else { return }
            append(
                .object([
                    "name": .string(frame.name.qualifiedName),
                    "namespace": frame.name.namespaceURI.map(Value.string) ?? .null,
                    "namespaces": .object(frame.namespaces),
                    "attributes": .object(frame.attributes),
                    "children": .array(frame.children),
                ]))
        case .text(let text):
            append(.string(text))
        case .cdata(let text):
            append(.object(["cdata": .string(text)]))
        case .comment(let text):
            append(.object(["comment": .string(text)]))
        case .processingInstruction(let target, let data):
            append(.object(["target": .string(target), "data": .string(data)]))
        }
    }

    /// `{"$xml": {"children": [...]}}`.
    var value: Value {
        .object([XMLDocumentPayload.kind: .object(["children": .array(top)])])
    }

    private func append(_ value: Value) {
        if stack.isEmpty {
            Self.append(value, to: &top)
        } else {
            Self.append(value, to: &stack[stack.count - 1].children)
        }
    }

    private static func append(_ value: Value, to children: inout [Value]) {
        if case .string(let text) = value, case .string(let previous)? = children.last {
            children[children.count - 1] = .string(previous + text)
        } else {
            children.append(value)
        }
    }
}
