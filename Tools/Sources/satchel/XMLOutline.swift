// SPDX-License-Identifier: Apache-2.0
import Satchel

/// XML text indented for reading, from a document's canonical form (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md: elements as
/// `{name, namespaces, attributes, children}`, text as strings, `{"cdata"}`, `{"comment"}`,
/// `{"target", "data"}`): one node per line, two spaces per level, an element whose only child
/// is text on one line, whitespace-only text left out. For display only — the document is
/// written faithfully by `XMLRequestSerializer`.
enum XMLOutline {
    /// Appends the lines of `node` (a document `{"children": …}` or any node) at `depth`.
    static func append(_ node: Value, depth: Int, to lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        switch node {
        case .string(let text):
            let trimmed = text.trimmingWhitespace
            if !trimmed.isEmpty { lines.append(indent + escape(trimmed, quote: false)) }
        case .object(let members):
            if let name = members["name"]?.stringValue {
                appendElement(name: name, members, indent: indent, depth: depth, to: &lines)
            } else if let cdata = members["cdata"]?.stringValue {
                lines.append(indent + "<![CDATA[\(cdata)]]>")
            } else if let comment = members["comment"]?.stringValue {
                lines.append(indent + "<!--\(comment)-->")
            } else if let target = members["target"]?.stringValue {
                let data = members["data"]?.stringValue ?? ""
                lines.append(indent + "<?\(target)\(data.isEmpty ? "" : " " + data)?>")
            } else {
                for child in members["children"]?.arrayValue ?? [] { append(child, depth: depth, to: &lines) }
            }
        default:
            break
        }
    }

    private static func appendElement(
        name: String, _ members: ValueObject, indent: String, depth: Int, to lines: inout [String]
    ) {
        var tag = "<" + name
        for (prefix, uri) in members["namespaces"]?.objectValue ?? [:] {
            tag += " xmlns\(prefix.isEmpty ? "" : ":" + prefix)=\"\(escape(uri.stringValue ?? "", quote: true))\""
        }
        for (attribute, value) in members["attributes"]?.objectValue ?? [:] {
            tag += " \(attribute)=\"\(escape(value.stringValue ?? "", quote: true))\""
        }
        let children = (members["children"]?.arrayValue ?? []).filter { child in
            if case .string(let text) = child { return !text.trimmingWhitespace.isEmpty }
            return true
        }
        if children.isEmpty {
            lines.append(indent + tag + "/>")
        } else if children.count == 1, case .string(let text) = children[0] {
            lines.append(indent + tag + ">" + escape(text.trimmingWhitespace, quote: false) + "</\(name)>")
        } else {
            lines.append(indent + tag + ">")
            for child in children { append(child, depth: depth + 1, to: &lines) }
            lines.append(indent + "</\(name)>")
        }
    }

    /// Text or an attribute value with `&`, `<`, `>` (and `"` in attributes) escaped.
    static func escape(_ text: String, quote: Bool) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where quote: output += "&quot;"
            default: output.append(character)
            }
        }
        return output
    }
}

extension String {
    /// The string without leading and trailing whitespace (spaces, tabs, line breaks).
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
