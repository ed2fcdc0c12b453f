// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// The C callbacks ``XMLParseContext`` installs in a parser context's SAX handler.
///
/// Each finds its ``XMLParseContext`` through `ctxt->_private`; after the first failure they do
/// nothing but stop the parser.
enum XMLCallbacks {
    // MARK: Errors and entities (both forms)

    /// libxml2's structured error callback: the per-parser channel (`ctxt->sax->serror`, called
    /// with `ctxt->userData`, which is the parser context itself). Its variadic generic callback
    /// cannot be written in Swift.
    static let structuredError: xmlStructuredErrorFunc = { userData, error in
        guard let (context, ctxt) = XMLParseContext.of(userData), let error else { return }
        if context.failed { return }
        if let converted = context.convert(error.pointee, ctxt: ctxt) {
            context.fail(converted, stopping: ctxt)
        }
    }

    /// libxml2's per-thread structured error handler while a session calls into libxml2
    /// (``XMLParseSession``), called with the ``XMLParseContext`` itself: the errors libxml2
    /// raises without a parser context, such as the input buffer's conversion errors.
    static let contextlessError: xmlStructuredErrorFunc = { userData, error in
        guard let userData, let error else { return }
        Unmanaged<XMLParseContext>.fromOpaque(userData)._withUnsafeGuaranteedRef { $0.noteContextless(error.pointee) }
    }

    /// Looks an entity up as libxml2 does, refuses external ones and charges internal ones to
    /// `maxEntityExpansions` (see ``XMLEntityBudget``).
    static let getEntity: getEntitySAXFunc = { ctx, name in
        guard let (context, ctxt) = XMLParseContext.of(ctx), let name else { return nil }
        if context.failed {
            xmlStopParser(ctxt)
            return nil
        }
        guard let entity = xmlSAX2GetEntity(ctx, name) else { return nil }
        switch entity.pointee.etype {
        case XML_INTERNAL_PREDEFINED_ENTITY:
            return entity
        case XML_INTERNAL_GENERAL_ENTITY:
            // Nested references (depth > 0) were charged with the outermost one; references in
            // the DTD are only checked there, not expanded.
            guard ctxt.pointee.depth == 0, ctxt.pointee.inSubset == 0 else { return entity }
            return context.chargeReference(to: entity, ctxt: ctxt) ? entity : nil
        default:
            context.refuseExternal(entity, kind: "entity &", ctxt: ctxt)
            return nil
        }
    }

    /// Looks a parameter entity up, refuses external ones and charges every expansion.
    static let getParameterEntity: getParameterEntitySAXFunc = { ctx, name in
        guard let (context, ctxt) = XMLParseContext.of(ctx), let name else { return nil }
        if context.failed {
            xmlStopParser(ctxt)
            return nil
        }
        guard let entity = xmlSAX2GetParameterEntity(ctx, name) else { return nil }
        guard entity.pointee.etype == XML_INTERNAL_PARAMETER_ENTITY else {
            context.refuseExternal(entity, kind: "parameter entity %", ctxt: ctxt)
            return nil
        }
        // Parameter entities are expanded as text each time, so each reference is one expansion.
        // libxml2 also looks them up while declaring them; a reference has just read its ';'.
        guard let input = ctxt.pointee.input, let current = input.pointee.cur, let base = input.pointee.base,
            current > base, (current - 1).pointee == UInt8(ascii: ";")
        else { return entity }
        if context.isRepeatedLookup(of: entity, ctxt: ctxt) { return entity }
        let cost = XMLEntityBudget.Cost(references: 1, bytes: Int(entity.pointee.length))
        return context.charge(cost, ctxt: ctxt) ? entity : nil
    }

    /// Never loads anything: external entities and DTDs stay unread.
    static let resolveEntity: resolveEntitySAXFunc = { ctx, publicID, systemID in
        guard let (context, ctxt) = XMLParseContext.of(ctx) else { return nil }
        let target = XMLLibrary.string(systemID) ?? XMLLibrary.string(publicID) ?? "?"
        context.fail(
            SatchelError(
                .unsupportedFormat,
                "external resource '\(target)' is not loaded: external entities and DTDs are disabled"), stopping: ctxt)
        return nil
    }

    /// Ignores the external DTD subset (it is never loaded).
    static let externalSubset: externalSubsetSAXFunc = { _, _, _, _ in }

    // MARK: Document form: libxml2 builds the tree, we count

    static let documentStartElement: startElementNsSAX2Func = {
        ctx, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed, context.enterElement(ctxt: ctxt),
                context.checkAttributes(attributes, count: Int(attributeCount), ctxt: ctxt)
            else { return }
            xmlSAX2StartElementNs(
                ctx, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes)
        }
    }

    static let documentEndElement: endElementNsSAX2Func = { ctx, localName, prefix, uri in
        XMLParseContext.with(ctx) { context, _ in
            context.depth -= 1
            context.textRun = 0
        }
        xmlSAX2EndElementNs(ctx, localName, prefix, uri)
    }

    static let documentCharacters: charactersSAXFunc = { ctx, characters, length in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed else { return }
            if ctxt.pointee.depth == 0 && !context.addText(Int(length), ctxt: ctxt) { return }
            xmlSAX2Characters(ctx, characters, length)
        }
    }

    static let documentCDATA: cdataBlockSAXFunc = { ctx, characters, length in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed else { return }
            if ctxt.pointee.depth == 0 && !context.addText(Int(length), ctxt: ctxt) { return }
            xmlSAX2CDataBlock(ctx, characters, length)
        }
    }

    // MARK: Event form: deliver events, build nothing

    static let eventStartElement: startElementNsSAX2Func = {
        ctx, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed else { return }
            context.flushText(ctxt: ctxt)
            // Attributes defaulted by the DTD come last; like libxml2's tree, the events leave them out.
            let attributeCount = Int(attributeCount - defaultedCount)
            guard context.enterElement(ctxt: ctxt),
                context.checkAttributes(attributes, count: attributeCount, ctxt: ctxt)
            else {
                return
            }
            context.currentEvent = XMLParseContext.CurrentEvent(
                localName: localName, prefix: prefix, uri: uri, namespaces: namespaces,
                namespaceCount: Int(namespaceCount), attributes: attributes, attributeCount: attributeCount)
            context.deliver(.startElement, ctxt: ctxt)
        }
    }

    static let eventEndElement: endElementNsSAX2Func = { ctx, localName, prefix, uri in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed else { return }
            context.flushText(ctxt: ctxt)
            context.depth -= 1
            context.textRun = 0
            context.currentEvent = XMLParseContext.CurrentEvent(localName: localName, prefix: prefix, uri: uri)
            context.deliver(.endElement, ctxt: ctxt)
        }
    }

    static let eventCharacters: charactersSAXFunc = { ctx, characters, length in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed, ctxt.pointee.inSubset == 0, let characters, length > 0 else { return }
            context.appendText(characters, Int(length), isCDATA: false, ctxt: ctxt)
        }
    }

    static let eventCDATA: cdataBlockSAXFunc = { ctx, characters, length in
        guard let (context, ctxt) = XMLParseContext.of(ctx), !context.failed,
            let characters, length >= 0
        else { return }
        context.appendText(characters, Int(length), isCDATA: true, ctxt: ctxt)
    }

    static let eventComment: commentSAXFunc = { ctx, value in
        guard let (context, ctxt) = XMLParseContext.of(ctx), !context.failed,
            ctxt.pointee.inSubset == 0
        else { return }
        context.flushText(ctxt: ctxt)
        context.deliver(.comment, text: value, ctxt: ctxt)
    }

    static let eventProcessingInstruction: processingInstructionSAXFunc = { ctx, target, data in
        guard let (context, ctxt) = XMLParseContext.of(ctx), !context.failed,
            ctxt.pointee.inSubset == 0
        else { return }
        context.flushText(ctxt: ctxt)
        context.deliver(.processingInstruction, text: data, target: target, ctxt: ctxt)
    }
}
