// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// Event delivery, text runs and attribute checks.
extension XMLParseContext {
    /// The string for one of libxml2's interned names, decoded once per parse.
    func interned(_ text: UnsafePointer<xmlChar>?) -> String? {
        guard let text else { return nil }
        let key = UnsafeRawPointer(text)
        // Fibonacci hashing of the whole address: libxml2's dictionary packs short names a few
        // bytes apart, so slots taken from the address's bits above the third collided for
        // names in the same 8 bytes (four in ten look-ups missed on an attribute-heavy file).
        let slot =
            Int(truncatingIfNeeded: UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15 >> 56)
            & (names.count - 1)
        if names[slot].key == key { return names[slot].name }
        let string = String(cString: text)
        names[slot] = (key, string)
        return string
    }

    /// An element or attribute name from SAX2's local name, prefix and namespace URI.
    func name(
        _ localName: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?
    ) -> XMLName {
        XMLName(localName: interned(localName) ?? "", prefix: interned(prefix), namespaceURI: interned(uri))
    }

    /// What libxml2 handed over for one event: pointers into its buffers, valid during the
    /// callback that delivers the event.
    struct CurrentEvent {
        var localName: UnsafePointer<xmlChar>?
        var prefix: UnsafePointer<xmlChar>?
        var uri: UnsafePointer<xmlChar>?
        /// SAX2's namespace array: prefix and URI per declaration.
        var namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
        var namespaceCount = 0
        /// SAX2's attribute array: local name, prefix, URI, value start and end per attribute.
        var attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
        var attributeCount = 0
        /// A processing instruction's target.
        var target: UnsafePointer<xmlChar>?
        /// Text, CDATA, a comment or a processing instruction's data.
        var text = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    }

    /// Hands the event in ``currentEvent`` (set whole by the caller) to the handler as a view;
    /// what the handler throws stops the parse. The view is valid during the call only:
    /// ``viewGeneration`` changes around it.
    func deliver(_ kind: XMLEventView.Kind, ctxt: xmlParserCtxtPtr) {
        guard let handler else { return }
        viewGeneration &+= 1
        // What the view reads is stale after the call; the generation tells the view so.
        defer { viewGeneration &+= 1 }
        do {
            try handler(XMLEventView(kind: kind, context: self))
        } catch {
            // The handler is the caller's (``XMLEventReader``) and throws any error.
            fail(handler: error, "the XML event handler failed", stopping: ctxt)
        }
    }

    /// Delivers an event that carries only text (a comment, a processing instruction).
    func deliver(
        _ kind: XMLEventView.Kind, text: UnsafePointer<xmlChar>?, target: UnsafePointer<xmlChar>? = nil,
        ctxt: xmlParserCtxtPtr
    ) {
        currentEvent = CurrentEvent(
            target: target, text: UnsafeBufferPointer(start: text, count: text.map { Int(xmlStrlen($0)) } ?? 0))
        deliver(kind, ctxt: ctxt)
    }

    /// Stops the parse because the caller's handler (of events, or of matched elements) threw
    /// `error`: kept as it is in ``handlerFailure`` for the reader to rethrow.
    func fail(handler error: any Error, _ what: String, stopping ctxt: xmlParserCtxtPtr) {
        if !failed { handlerFailure = error }
        fail(SatchelError(.internal, what, underlying: error), stopping: ctxt)
    }

    /// Adds text or CDATA to the pending run, delivering the pending run first when its kind
    /// differs.
    func appendText(_ characters: UnsafePointer<xmlChar>, _ count: Int, isCDATA: Bool, ctxt: xmlParserCtxtPtr) {
        if pendingIsCDATA != isCDATA {
            flushText(ctxt: ctxt)
            pendingIsCDATA = isCDATA
        }
        if ctxt.pointee.depth == 0 && !addText(count, ctxt: ctxt) { return }
        if pendingCount + count > pendingCapacity { growPendingText(toHold: pendingCount + count) }
        guard let storage = pendingStorage, count > 0 else { return }
        (storage + pendingCount).initialize(from: characters, count: count)
        pendingCount += count
    }

    /// Moves the pending text to storage of at least `needed` bytes (twice the old, at least 256).
    private func growPendingText(toHold needed: Int) {
        let capacity = max(needed, 2 * pendingCapacity, 256)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        if let old = pendingStorage {
            storage.initialize(from: old, count: pendingCount)
            old.deallocate()
        }
        pendingStorage = storage
        pendingCapacity = capacity
    }

    /// Delivers the pending text run, if any, as one event.
    func flushText(ctxt: xmlParserCtxtPtr) {
        textRun = 0
        guard pendingCount > 0, let storage = pendingStorage else { return }
        currentEvent = CurrentEvent(text: UnsafeBufferPointer(start: storage, count: pendingCount))
        deliver(pendingIsCDATA ? .cdata : .text, ctxt: ctxt)
        pendingCount = 0
    }

    /// Checks SAX2's attribute array (five pointers per attribute: local name, prefix, URI, value
    /// start and end) against `maxStringBytes`.
    /// - Returns: `false` (after recording the error) when a value is too long.
    func checkAttributes(
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int, ctxt: xmlParserCtxtPtr
    ) -> Bool {
        guard let attributes else { return true }
        for index in 0..<count {
            guard let start = attributes[5 * index + 3], let end = attributes[5 * index + 4] else { continue }
            let length = end - start
            if length > limits.maxStringBytes {
                fail(
                    limitError(
                        "maxStringBytes", limits.maxStringBytes, "an attribute value of \(length) bytes", at: ctxt),
                    stopping: ctxt)
                return false
            }
        }
        return true
    }
}
