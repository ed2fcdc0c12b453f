import CLibXML2
import SerializerRegistry

extension XMLParseContext {
    /// The string for one of libxml2's interned names, decoded once per parse.
    func interned(_ text: UnsafePointer<xmlChar>?) -> String? {
        guard let text else { return nil }
        let key = UnsafeRawPointer(text)
        let slot = (Int(bitPattern: key) >> 3 ^ Int(bitPattern: key) >> 11) & (names.count - 1)
        if names[slot].key == key { return names[slot].name }
        let string = String(cString: text)
        names[slot] = (key, string)
        return string
    }

    /// An element or attribute name from SAX2's local name, prefix and namespace URI.
    func name(_ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?) -> XMLName {
        XMLName(localName: interned(localName) ?? "", prefix: interned(prefix), namespaceURI: interned(uri))
    }

    /// Hands `event` to the handler; what the handler throws stops the parse.
    func deliver(_ event: XMLEvent, ctxt: xmlParserCtxtPtr) {
        guard let handler else { return }
        do {
            try handler(event)
        } catch {
            fail(error, stopping: ctxt)
        }
    }

    /// Adds text or CDATA to the pending run, delivering the pending run first when its kind
    /// differs.
    func appendText(_ characters: UnsafePointer<xmlChar>, _ count: Int, isCDATA: Bool, ctxt: xmlParserCtxtPtr) {
        if pendingIsCDATA != isCDATA {
            flushText(ctxt: ctxt)
            pendingIsCDATA = isCDATA
        }
        if ctxt.pointee.depth == 0 && !addText(count, ctxt: ctxt) { return }
        pendingText.append(contentsOf: UnsafeBufferPointer(start: characters, count: count))
    }

    /// Delivers the pending text run, if any, as one event.
    func flushText(ctxt: xmlParserCtxtPtr) {
        textRun = 0
        guard !pendingText.isEmpty else { return }
        let text = String(decoding: pendingText, as: UTF8.self)
        pendingText.removeAll(keepingCapacity: true)
        deliver(pendingIsCDATA ? .cdata(text) : .text(text), ctxt: ctxt)
    }

    /// Checks SAX2's attribute array (five pointers per attribute: local name, prefix, URI, value
    /// start and end) against `maxStringBytes`.
    /// - Returns: `false` (after recording the error) when a value is too long.
    func checkAttributes(_ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int, ctxt: xmlParserCtxtPtr) -> Bool {
        guard let attributes else { return true }
        for index in 0..<count {
            guard let start = attributes[5 * index + 3], let end = attributes[5 * index + 4] else { continue }
            let length = end - start
            if length > limits.maxStringBytes {
                fail(limitError("maxStringBytes", limits.maxStringBytes, "an attribute value of \(length) bytes", at: ctxt), stopping: ctxt)
                return false
            }
        }
        return true
    }

    /// Charges the reference to the internal general entity `entity` at the parser's position
    /// (libxml2 looks the first reference to an entity up twice: it is charged once).
    /// - Returns: `false` (after recording the error) when a limit is exceeded.
    func chargeReference(to entity: xmlEntityPtr, ctxt: xmlParserCtxtPtr) -> Bool {
        if isRepeatedLookup(of: entity, ctxt: ctxt) { return true }
        guard let cost = entityBudget.cost(of: entity, in: ctxt.pointee.myDoc) else {
            let name = XMLLibrary.string(entity.pointee.name) ?? "?"
            fail(limitError("maxEntityExpansions", limits.maxEntityExpansions,
                            "entity &\(name); refers to itself or nests more than \(XMLEntityBudget.maxNesting) deep, so its expansion",
                            at: ctxt), stopping: ctxt)
            return false
        }
        return charge(cost, ctxt: ctxt) && addText(cost.bytes, ctxt: ctxt)
    }

    /// Whether `entity` was just looked up at the same position (libxml2 looks some references
    /// up twice); records the look-up otherwise.
    func isRepeatedLookup(of entity: xmlEntityPtr, ctxt: xmlParserCtxtPtr) -> Bool {
        guard let input = ctxt.pointee.input, let current = input.pointee.cur, let base = input.pointee.base else { return false }
        let position = Int(input.pointee.consumed) + (current - base)
        if position == lastReference.position && entity == lastReference.entity { return true }
        lastReference = (position, entity)
        return false
    }

    /// Charges an expansion of `cost` to `maxEntityExpansions` and, for the bytes it produces,
    /// to `maxBodyBytes` (the document after expansion is held to the same bound as the body).
    /// - Returns: `false` (after recording the error) when a limit is exceeded.
    func charge(_ cost: XMLEntityBudget.Cost, ctxt: xmlParserCtxtPtr) -> Bool {
        expansions = XMLEntityBudget.add(expansions, cost.references)
        expandedBytes = XMLEntityBudget.add(expandedBytes, cost.bytes)
        if expansions > limits.maxEntityExpansions {
            fail(limitError("maxEntityExpansions", limits.maxEntityExpansions, "\(expansions) entity expansions", at: ctxt), stopping: ctxt)
            return false
        }
        if expandedBytes > limits.maxBodyBytes {
            fail(limitError("maxBodyBytes", limits.maxBodyBytes, "text produced by entity expansion (\(expandedBytes) bytes)", at: ctxt), stopping: ctxt)
            return false
        }
        return true
    }

    /// Records that the document refers to an external entity, which is never loaded.
    func refuseExternal(_ entity: xmlEntityPtr, kind: String, ctxt: xmlParserCtxtPtr) {
        let name = XMLLibrary.string(entity.pointee.name) ?? "?"
        let target = XMLLibrary.string(entity.pointee.URI) ?? XMLLibrary.string(entity.pointee.SystemID) ?? "?"
        var error = SatchelError(
            .unsupportedFormat,
            "external \(kind)\(name); ('\(target)') is not loaded: external entities and DTDs are disabled")
        locate(&error, ctxt: ctxt)
        fail(error, stopping: ctxt)
    }
}
