// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// Elements form (``XMLParseContext/Mode/elements(_:)``): libxml2 builds the tree, we count as
/// the document form does, keep content only inside matched elements, and hand each matched
/// element over at its end tag.
extension XMLCallbacks {
    static let elementsStartElement: startElementNsSAX2Func = {
        ctx, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed, let selection = context.selection, context.enterElement(ctxt: ctxt),
                context.checkAttributes(attributes, count: Int(attributeCount), ctxt: ctxt)
            else { return }
            xmlSAX2StartElementNs(
                ctx, localName, prefix, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes)
            selection.enter(depth: context.depth, local: localName, uri: uri, offset: context.offset(ctxt))
            context.checkRecordSize(ctxt: ctxt)
        }
    }

    static let elementsEndElement: endElementNsSAX2Func = { ctx, localName, prefix, uri in
        XMLParseContext.with(ctx) { context, ctxt in
            let depth = context.depth
            context.depth -= 1
            context.textRun = 0
            let node = ctxt.pointee.node
            xmlSAX2EndElementNs(ctx, localName, prefix, uri)
            context.checkRecordSize(ctxt: ctxt)
            guard !context.failed, let selection = context.selection else { return }
            do {
                try selection.leave(node, depth: depth)
            } catch {
                context.fail(handler: error, "the record handler failed", stopping: ctxt)
            }
        }
    }

    static let elementsCharacters: charactersSAXFunc = { ctx, characters, length in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed else { return }
            // Counted everywhere, as the other forms do; kept only inside a match.
            if ctxt.pointee.depth == 0 && !context.addText(Int(length), ctxt: ctxt) { return }
            guard context.selection?.isInsideMatch == true else { return }
            xmlSAX2Characters(ctx, characters, length)
            context.checkRecordSize(ctxt: ctxt)
        }
    }

    static let elementsCDATA: cdataBlockSAXFunc = { ctx, characters, length in
        XMLParseContext.with(ctx) { context, ctxt in
            guard !context.failed else { return }
            if ctxt.pointee.depth == 0 && !context.addText(Int(length), ctxt: ctxt) { return }
            guard context.selection?.isInsideMatch == true else { return }
            xmlSAX2CDataBlock(ctx, characters, length)
            context.checkRecordSize(ctxt: ctxt)
        }
    }

    static let elementsComment: commentSAXFunc = { ctx, value in
        XMLParseContext.with(ctx) { context, _ in
            guard !context.failed, context.selection?.isInsideMatch == true else { return }
            xmlSAX2Comment(ctx, value)
        }
    }

    static let elementsProcessingInstruction: processingInstructionSAXFunc = { ctx, target, data in
        XMLParseContext.with(ctx) { context, _ in
            guard !context.failed, context.selection?.isInsideMatch == true else { return }
            xmlSAX2ProcessingInstruction(ctx, target, data)
        }
    }
}

extension XMLParseContext {
    /// The parser's offset in the input.
    func offset(_ ctxt: xmlParserCtxtPtr) -> Int {
        Int(xmlByteConsumed(mainParser ?? ctxt))
    }

    /// Stops the parse when the matched element being read has taken more than
    /// ``Limits/maxRecordBytes`` of input.
    func checkRecordSize(ctxt: xmlParserCtxtPtr) {
        guard let selection, selection.matchBytes(at: offset(ctxt)) > limits.maxRecordBytes else { return }
        fail(
            limitError(
                "maxRecordBytes", limits.maxRecordBytes, "an element matching \(selection.path.text)", at: ctxt),
            stopping: ctxt)
    }
}
