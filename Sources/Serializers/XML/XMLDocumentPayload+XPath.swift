// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

extension XMLDocumentPayload {
    /// The nodes an XPath 1.0 expression selects, as canonical values: an element is its object
    /// (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md), a text node, CDATA section or attribute its text, a namespace node its URI,
    /// a comment or processing instruction its object.
    ///
    /// - Parameters:
    ///   - xpath: The expression, such as `/feed/atom:entry/atom:title`.
    ///   - namespaces: Prefixes for the expression, to namespace URIs (a document's own prefixes
    ///     mean nothing to XPath; an element in a default namespace needs a prefix here).
    /// - Throws: ``SatchelError/Code/syntaxError`` for an invalid expression or an unknown prefix,
    ///   with the character offset in the expression; ``SatchelError/Code/typeMismatch`` when the
    ///   expression gives a number, string or boolean rather than nodes.
    /// - Complexity: that of the expression; safe to call from several threads at once.
    public func nodes(xpath: String, namespaces: [String: String] = [:]) throws -> [Value] {
        try evaluate(xpath, namespaces: namespaces) { result in
            guard result.pointee.type == XPATH_NODESET else {
                throw SatchelError(
                    .typeMismatch,
                    "the XPath expression '\(xpath)' gives a \(Self.typeName(result.pointee.type)), not a node set")
            }
            guard let set = result.pointee.nodesetval, let table = set.pointee.nodeTab else { return [] }
            return (0..<Int(set.pointee.nodeNr)).compactMap { index in
                guard let node = table[index] else { return nil }
                if node.pointee.type == XML_NAMESPACE_DECL {
                    let namespace = UnsafeMutableRawPointer(node).assumingMemoryBound(to: xmlNs.self)
                    return .string(XMLLibrary.string(namespace.pointee.href) ?? "")
                }
                return Self.value(of: node)
            }
        }
    }

    /// The string value of an XPath 1.0 expression, as XPath's `string()` gives it: the text of
    /// the first selected node, a number or boolean written out, `""` when nothing matches.
    ///
    /// - Parameters:
    ///   - xpath: The expression, such as `string(/rss/channel/title)` or `count(//item)`.
    ///   - namespaces: Prefixes for the expression, to namespace URIs.
    /// - Throws: ``SatchelError/Code/syntaxError`` for an invalid expression or unknown prefix.
    public func string(xpath: String, namespaces: [String: String] = [:]) throws -> String {
        try evaluate(xpath, namespaces: namespaces) { result in
            guard let text = xmlXPathCastToString(result) else { return "" }
            defer { XMLLibrary.free(text) }
            return String(cString: text)
        }
    }

    /// Evaluates `expression` in a fresh XPath context under ``queryLock`` and passes the result
    /// to `body`; errors are captured through the context's own structured error callback.
    private func evaluate<T: Sendable>(
        _ expression: String, namespaces: [String: String], _ body: (xmlXPathObjectPtr) throws -> T
    ) throws -> T {
        try queryLock.withLock { _ throws -> T in
            guard let context = xmlXPathNewContext(document) else {
                throw SatchelError(.internal, "libxml2 could not create an XPath context")
            }
            defer { xmlXPathFreeContext(context) }
            let capture = XPathErrorCapture()
            context.pointee.userData = Unmanaged.passUnretained(capture).toOpaque()
            context.pointee.error = XPathErrorCapture.callback
            for (prefix, uri) in namespaces.sorted(by: { $0.key < $1.key })
            where xmlXPathRegisterNs(context, prefix, uri) != 0 {
                throw SatchelError(
                    .invalidArgument, "cannot register the XPath namespace prefix '\(prefix)' for '\(uri)'")
            }
            let result = withExtendedLifetime(capture) { xmlXPathEval(expression, context) }
            guard let result, capture.error == nil else {
                if let result { xmlXPathFreeObject(result) }
                throw capture.satchelError(expression: expression)
            }
            defer { xmlXPathFreeObject(result) }
            return try body(result)
        }
    }

    private static func typeName(_ type: xmlXPathObjectType) -> String {
        switch type {
        case XPATH_BOOLEAN: "boolean"
        case XPATH_NUMBER: "number"
        case XPATH_STRING: "string"
        default: "value of XPath type \(type.rawValue)"
        }
    }
}
