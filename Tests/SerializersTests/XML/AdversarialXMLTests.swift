// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Hostile and malformed XML through both forms: external entities, entity bombs, deep
/// nesting, huge text, truncation, bad encodings, wrong types.
@Suite struct AdversarialXMLTests {
    /// The error both forms give for `text` (checked to agree on the code), whole and byte by byte
    /// for the event form.
    static func failure(_ text: String, limits: Limits = .default) -> SatchelError? {
        failure(Array(text.utf8), limits: limits)
    }

    static func failure(_ bytes: [UInt8], limits: Limits = .default, chunkSize: Int = 0) -> SatchelError? {
        let document = satchelError {
            try XMLDocumentResponseSerializer().decode(bytes, contentType: nil, limits: limits)
        }
        let events = satchelError { () -> Value? in
            let decoder = XMLEventResponseSerializer().makeIncrementalReader(contentType: nil, limits: limits)!
            return try XMLSamples.decode(bytes, with: decoder, chunkSize: chunkSize)
        }
        #expect(
            document?.code == events?.code,
            "document: \(String(describing: document)), events: \(String(describing: events))")
        return document
    }

    @Test func externalEntityReadingPasswdIsRefused() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <r>&xxe;</r>
            """
        let error = Self.failure(xxe)
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("file:///etc/passwd") == true)
        #expect(error?.line == 3)
        #expect(error?.description.contains("root:") == false)
        // In an attribute value too.
        let attribute = Self.failure("<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r a=\"&x;\"/>")
        #expect(attribute?.code == .unsupportedFormat || attribute?.code == .syntaxError)
    }

    @Test func externalDTDIsNotLoaded() throws {
        // The external subset is ignored (never read); its entities are then undeclared.
        let value = try XMLSamples.canonical("<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r>ok</r>")
        #expect(value["$xml"]?["children"]?[0]?["children"] == .array(["ok"]))
        let undeclared = Self.failure("<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r>&passwd;</r>")
        #expect(undeclared != nil)
        #expect(undeclared?.description.contains("root:") == false)
    }

    @Test func externalParameterEntityIsRefused() throws {
        let text = """
            <!DOCTYPE r [<!ENTITY % remote SYSTEM "file:///etc/passwd"> %remote;]><r/>
            """
        let error = Self.failure(text)
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("parameter entity %remote;") == true)
        let network = Self.failure("<!DOCTYPE r [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/x.dtd\"> %p;]><r/>")
        #expect(network?.code == .unsupportedFormat)
    }

    @Test func internalParameterEntitiesWork() throws {
        let value = try XMLSamples.canonical("<!DOCTYPE r [<!ENTITY % t \"<!ENTITY e 'pe'>\"> %t;]><r>&e;</r>")
        #expect(value["$xml"]?["children"]?[0]?["children"] == .array(["pe"]))
    }

    @Test func billionLaughsFailsFast() throws {
        var dtd = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let text = "<?xml version=\"1.0\"?><!DOCTYPE lolz [\(dtd)]><lolz>&lol9;</lolz>"
        let error = Self.failure(text)
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxEntityExpansions")
        #expect(error?.line == 1)
    }

    @Test func parameterEntitiesAreCounted() throws {
        // Inside a declaration of the internal subset a parameter entity reference is not
        // allowed at all, so the classic parameter-entity bomb is a syntax error.
        var dtd = "<!ENTITY % a0 \"xxxxxxxxxx\">"
        for level in 1...8 {
            dtd += "<!ENTITY % a\(level) \"" + String(repeating: "%a\(level - 1);", count: 10) + "\">"
        }
        #expect(Self.failure("<!DOCTYPE r [\(dtd)<!ENTITY big \"%a8;\">]><r>&big;</r>")?.code == .syntaxError)
        // Between declarations each reference is one expansion.
        var limits = Limits()
        limits.maxEntityExpansions = 5
        let declarations = (1...6).map { "<!ENTITY % d\($0) \"<!ENTITY e\($0) 'x'>\">" }.joined()
        let five = (1...5).map { "%d\($0);" }.joined(separator: " ")
        #expect(throws: Never.self) {
            try XMLSamples.canonical("<!DOCTYPE r [\(declarations)\(five)]><r/>", limits: limits)
        }
        let error = Self.failure("<!DOCTYPE r [\(declarations)\(five) %d6;]><r/>", limits: limits)
        #expect(error?.limit == "maxEntityExpansions")
    }

    @Test func expansionCountIsExactAtTheLimit() throws {
        var limits = Limits()
        limits.maxEntityExpansions = 30
        let nested = "<!DOCTYPE r [<!ENTITY a \"x\"><!ENTITY b \"&a;&a;\">]>"
        // Each &b; expands 3 references: b and its two a's.
        let ten = nested + "<r>" + String(repeating: "&b;", count: 10) + "</r>"
        let value = try XMLSamples.canonical(ten, limits: limits)
        #expect(value["$xml"]?["children"]?[0]?["children"] == .array([.string(String(repeating: "x", count: 20))]))
        let eleven = nested + "<r>" + String(repeating: "&b;", count: 11) + "</r>"
        #expect(Self.failure(eleven, limits: limits)?.limit == "maxEntityExpansions")
    }

    @Test func quadraticBlowupFails() throws {
        let big = String(repeating: "a", count: 50_000)
        let text = "<!DOCTYPE r [<!ENTITY big \"\(big)\">]><r>" + String(repeating: "&big;", count: 20_000) + "</r>"
        let error = Self.failure(text)
        #expect(error?.code == .limitExceeded)
        // The text run hits maxStringBytes (32 MiB) before the 10 000th expansion.
        #expect(error?.limit == "maxStringBytes" || error?.limit == "maxEntityExpansions")
        var limits = Limits()
        limits.maxBodyBytes = 1_000_000
        let bounded = Self.failure(
            "<!DOCTYPE r [<!ENTITY big \"\(big)\">]><r>" + String(repeating: "&big;<x/>", count: 100) + "</r>",
            limits: limits)
        #expect(bounded?.limit == "maxBodyBytes")
    }

    @Test func recursiveEntityIsAnError() throws {
        let error = Self.failure("<!DOCTYPE r [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><r>&a;</r>")
        #expect(error != nil)
    }

    @Test func deepNestingHitsMaxDepth() throws {
        let deep = String(repeating: "<a>", count: 600) + String(repeating: "</a>", count: 600)
        let error = Self.failure(deep)
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
        #expect((1537...1540).contains(error?.column ?? 0))
        var limits = Limits()
        limits.maxDepth = 600
        #expect(throws: Never.self) { try XMLSamples.canonical(deep, limits: limits) }
        let veryDeep = String(repeating: "<a>", count: 100_000)
        #expect(Self.failure(veryDeep)?.limit == "maxDepth")
    }

    @Test func hugeTextAndAttributeHitMaxStringBytes() throws {
        var limits = Limits()
        limits.maxStringBytes = 1000
        let text = Self.failure(
            Array(("<r>" + String(repeating: "x", count: 1001) + "</r>").utf8), limits: limits, chunkSize: 100)
        #expect(text?.limit == "maxStringBytes")
        let cdata = Self.failure("<r><![CDATA[" + String(repeating: "x", count: 1001) + "]]></r>", limits: limits)
        #expect(cdata?.limit == "maxStringBytes")
        let attribute = Self.failure("<r a='" + String(repeating: "x", count: 1001) + "'/>", limits: limits)
        #expect(attribute?.limit == "maxStringBytes")
        // Text split by elements is separate runs.
        #expect(throws: Never.self) {
            try XMLSamples.canonical(
                "<r>" + String(repeating: String(repeating: "x", count: 600) + "<b/>", count: 3) + "</r>",
                limits: limits)
        }
        limits.maxBodyBytes = 100
        #expect(
            Self.failure("<r>" + String(repeating: "x", count: 200) + "</r>", limits: limits)?.limit == "maxBodyBytes")
    }

    @Test func everyTruncationIsTruncatedInput() throws {
        let bytes = Array("<?xml version=\"1.0\"?><!-- c --><r a=\"1\"><b>t&amp;x</b><![CDATA[d]]><?p i?></r>".utf8)
        for cut in 1..<bytes.count {
            let prefix = Array(bytes[..<cut])
            if prefix.withUnsafeBytes({ $0.allSatisfy { $0 == 0x20 } }) { continue }
            let error = Self.failure(prefix)
            #expect(error?.code == .truncatedInput, "cut at \(cut): \(String(describing: error))")
        }
    }

    @Test func syntaxErrorsNameLineAndColumn() throws {
        let error = Self.failure("<r>\n  <a></b>\n</r>")
        #expect(error?.code == .syntaxError)
        #expect(error?.line == 2)
        #expect(error?.column != nil)
        #expect(error?.offset != nil)
        #expect(error?.message.contains("mismatch") == true)
        #expect(Self.failure("<r/><r/>")?.code == .syntaxError)
        #expect(Self.failure("<r a='1' a='2'/>")?.code == .syntaxError)
        #expect(Self.failure("<p:r/>")?.code == .syntaxError)
    }

    @Test func invalidUTF8IsInvalidEncoding() throws {
        let bytes: [UInt8] = Array("<r>".utf8) + [0xC3, 0x28] + Array("</r>".utf8)
        #expect(Self.failure(bytes)?.code == .invalidEncoding)
        #expect(Self.failure(bytes, chunkSize: 1)?.code == .invalidEncoding)
        let overlong: [UInt8] = Array("<r>".utf8) + [0xC0, 0xAF] + Array("</r>".utf8)
        #expect(Self.failure(overlong)?.code == .invalidEncoding)
        let unknown = satchelError {
            try XMLDocumentResponseSerializer().decode(
                Array("<r/>".utf8), contentType: MediaType(parsing: "text/xml; charset=x-nothing"), limits: .default)
        }
        #expect(unknown?.code == .unsupportedFormat)
    }

    @Test func wrongTypeIsSyntaxError() throws {
        let json = Self.failure(#"{"a": [1, 2]}"#)
        #expect(json?.code == .syntaxError)
        #expect(json?.line == 1 && json?.column == 1)
        #expect(Self.failure("plain text")?.code == .syntaxError)
        #expect(Self.failure([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])?.code != nil)
    }

    @Test func doctypeWithInternalSubsetIsAccepted() throws {
        let text = """
            <!DOCTYPE note [
              <!ELEMENT note (to)>
              <!ATTLIST note kind CDATA "memo">
              <!ENTITY sig "-- A">
              <!-- a comment in the subset -->
            ]>
            <note><to>B &sig;</to></note>
            """
        let value = try XMLSamples.canonical(text)
        let note = value["$xml"]?["children"]?[0]
        #expect(note?["name"] == "note")
        #expect(note?["children"]?[0]?["children"] == .array(["B -- A"]))
        // Attributes the DTD defaults are not added (the document's own attributes only).
        #expect(note?["attributes"] == .object([:]))
    }

    @Test func mutatedDocumentsNeverCrash() throws {
        let mutator = ByteMutator(
            alphabet: Array("<>&;/=\"'![]?-#x \n".utf8) + [0x00, 0xC3, 0xFF],
            snippets: [
                "<!DOCTYPE r [<!ENTITY e \"&e;\">]>", "&e;", "<![CDATA[", "]]>", "<!--", "-->", "<?x", "?>",
                "xmlns:p='u'", "&#0;", "&#x10FFFF;",
            ])
        var generator = SeededGenerator(seed: 0x584D_4C21)
        let seed = Array(XMLSamples.feed.utf8)
        for _ in 0..<300 {
            let bytes = mutator.mutate(seed, using: &generator)
            for serializer in [XMLDocumentResponseSerializer() as any ResponseSerializer, XMLEventResponseSerializer()]
            {
                do {
                    _ = try serializer.decode(bytes, contentType: nil, limits: .default)
                } catch {
                    #expect(error.code != .internal, "\(error)")
                }
            }
        }
    }

    @Test func concurrentParsesKeepTheirOwnErrors() async throws {
        // Each parse captures errors through its own parser context: no error crosses over.
        let results = await withTaskGroup(of: (Int, Int?).self) { group in
            for index in 0..<48 {
                group.addTask {
                    let line = index % 6 + 1
                    let text =
                        "<r>" + String(repeating: "\n", count: line - 1)
                        + (index.isMultiple(of: 2) ? "<a></b>" : "<a/>") + "</r>"
                    do {
                        if index.isMultiple(of: 3) {
                            _ = try XMLEventResponseSerializer().decode(
                                Array(text.utf8), contentType: nil, limits: .default)
                        } else {
                            _ = try XMLDocumentPayload(parsing: Array(text.utf8))
                        }
                        return (index, nil)
                    } catch {
                        return (index, (error as? SatchelError)?.line ?? -1)
                    }
                }
            }
            var results: [Int: Int?] = [:]
            for await (index, line) in group { results[index] = line }
            return results
        }
        for (index, line) in results {
            #expect(line == (index.isMultiple(of: 2) ? index % 6 + 1 : nil), "parse \(index)")
        }
    }
}
