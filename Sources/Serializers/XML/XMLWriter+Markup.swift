// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// Tags, attributes, escaping and the namespace scopes of ``XMLWriter``.
extension XMLWriter {
    /// Writes a start tag (left open: content ends it with `>`, no content makes it `/>`) and
    /// pushes its namespace scope.
    mutating func openElement(
        _ name: String, declarations: [String: String], attributes: [(String, String)], path: String
    ) throws {
        var scope = scopes.last ?? [:]
        for (prefix, uri) in declarations { scope[prefix] = uri }
        for (attribute, value) in attributes where attribute == "xmlns" || attribute.hasPrefix("xmlns:") {
            scope[attribute == "xmlns" ? "" : String(attribute.dropFirst(6))] = value
        }
        try checkName(name, scope: scope, path: path)
        endStartTag()
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: name.utf8)
        for (prefix, uri) in declarations.sorted(by: { $0.key < $1.key }) {
            try appendAttribute(prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)", uri, path: path)
        }
        for (attribute, value) in attributes {
            if !(attribute == "xmlns" || attribute.hasPrefix("xmlns:")) {
                try checkName(attribute, scope: scope, path: "\(path).@\(attribute)")
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
    func checkName(_ name: String, scope: [String: String], path: String) throws {
        guard !name.isEmpty, xmlValidateQName(name, 0) == 0 else {
            throw SatchelError(.unencodableValue, "'\(name)' is not an XML name", keyPath: path)
        }
        if let colon = name.firstIndex(of: ":") {
            let prefix = String(name[..<colon])
            guard let uri = scope[prefix], !uri.isEmpty else {
                throw SatchelError(
                    .unencodableValue,
                    "the prefix '\(prefix)' of '\(name)' is not declared (add an xmlns:\(prefix) attribute)",
                    keyPath: path)
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
        let allowed =
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || value >= 0x10000
        if !allowed {
            throw SatchelError(
                .unencodableValue,
                "the character U+\(String(value, radix: 16, uppercase: true)) cannot appear in XML 1.0", keyPath: path)
        }
    }
}
