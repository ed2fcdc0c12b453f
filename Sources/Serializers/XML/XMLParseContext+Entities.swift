// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// Entity expansions charged to ``Limits``, and external entities refused.
extension XMLParseContext {
    /// Charges the reference to the internal general entity `entity` at the parser's position
    /// (libxml2 looks the first reference to an entity up twice: it is charged once).
    /// - Returns: `false` (after recording the error) when a limit is exceeded.
    func chargeReference(to entity: xmlEntityPtr, ctxt: xmlParserCtxtPtr) -> Bool {
        if isRepeatedLookup(of: entity, ctxt: ctxt) { return true }
        guard let cost = entityBudget.cost(of: entity, in: ctxt.pointee.myDoc) else {
            let name = XMLLibrary.string(entity.pointee.name) ?? "?"
            fail(
                limitError(
                    "maxEntityExpansions", limits.maxEntityExpansions,
                    "entity &\(name); refers to itself or nests more than \(XMLEntityBudget.maxNesting) deep, so its expansion",
                    at: ctxt), stopping: ctxt)
            return false
        }
        return charge(cost, ctxt: ctxt) && addText(cost.bytes, ctxt: ctxt)
    }

    /// Whether `entity` was just looked up at the same position (libxml2 looks some references
    /// up twice); records the look-up otherwise.
    func isRepeatedLookup(of entity: xmlEntityPtr, ctxt: xmlParserCtxtPtr) -> Bool {
        guard let input = ctxt.pointee.input, let current = input.pointee.cur, let base = input.pointee.base else {
            return false
        }
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
            fail(
                limitError(
                    "maxEntityExpansions", limits.maxEntityExpansions, "\(expansions) entity expansions", at: ctxt),
                stopping: ctxt)
            return false
        }
        if expandedBytes > limits.maxBodyBytes {
            fail(
                limitError(
                    "maxBodyBytes", limits.maxBodyBytes, "text produced by entity expansion (\(expandedBytes) bytes)",
                    at: ctxt), stopping: ctxt)
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
