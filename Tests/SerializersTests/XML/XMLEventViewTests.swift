// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// The event views of `XMLEventReader(viewHandler:)`: each accessor against the event it stands
/// for, attribute look-up by name, limits and handler errors, and a view kept past its call.
@Suite struct XMLEventViewTests {
    /// What a view's accessors give, copied during the handler's call.
    struct Seen: Equatable {
        var kind: XMLEventView.Kind
        var name: XMLName?
        var attributes: [XMLAttribute]
        var attributeCount: Int
        var namespaces: [XMLNamespaceDeclaration]
        var text: String
        var utf8Count: Int
        var target: String?
        var event: XMLEvent
    }

    static func seen(_ bytes: [UInt8], chunkSize: Int = 0, limits: Limits = .default) throws -> [Seen] {
        var seen: [Seen] = []
        let parser = XMLEventReader(
            limits: limits,
            viewHandler: { view in
                seen.append(
                    Seen(
                        kind: view.kind, name: view.name, attributes: view.attributes,
                        attributeCount: view.attributeCount, namespaces: view.namespaces, text: view.text,
                        utf8Count: view.withUTF8 { $0.count }, target: view.target, event: view.event))
            })
        try feedInChunks(bytes, chunkSize: chunkSize) { try parser.feed($0) }
        try parser.finish()
        return seen
    }

    @Test(arguments: [0, 1, 3, 64])
    func eachAccessorGivesWhatTheEventHolds(chunkSize: Int) throws {
        let bytes = Array(XMLSamples.feed.utf8)
        let seen = try Self.seen(bytes, chunkSize: chunkSize)
        #expect(seen.map(\.event) == (try XMLSamples.events(bytes)))
        for item in seen {
            switch item.event {
            case .startElement(let name, let attributes, let namespaces):
                #expect(item.kind == .startElement && item.name == name && item.attributes == attributes)
                #expect(item.attributeCount == attributes.count && item.namespaces == namespaces)
                #expect(item.text.isEmpty && item.target == nil)
            case .endElement(let name):
                #expect(item.kind == .endElement && item.name == name && item.attributes.isEmpty)
            case .text(let text):
                #expect(item.kind == .text && item.text == text && item.utf8Count == text.utf8.count)
                #expect(item.name == nil && item.attributeCount == 0 && item.namespaces.isEmpty)
            case .cdata(let text):
                #expect(item.kind == .cdata && item.text == text)
            case .comment(let text):
                #expect(item.kind == .comment && item.text == text)
            case .processingInstruction(let target, let data):
                #expect(item.kind == .processingInstruction && item.target == target && item.text == data)
            }
        }
        // Known values, not only agreement with the owned events.
        #expect(seen.contains { $0.kind == .text && $0.text == "News from Ada & co" })
        #expect(seen.contains { $0.kind == .cdata && $0.text == "<raw> & " })
        #expect(seen.contains { $0.kind == .processingInstruction && $0.target == "render" && $0.text == "fast" })
        #expect(seen.contains { $0.kind == .comment && $0.text == " inner " })
        #expect(seen.filter { $0.kind == .startElement }.count == 7)
    }

    @Test func attributesAreFoundByLocalNameAndNamespace() throws {
        let text = #"<r xmlns:m="urn:m" id="1" idx="2" m:id="3" empty="" amp="a&amp;b"/>"#
        var found: [String?] = []
        var byIndex: [XMLAttribute] = []
        let parser = XMLEventReader(viewHandler: { view in
            guard view.kind == .startElement else { return }
            found = [
                view.value(ofAttribute: "id"), view.value(ofAttribute: "idx"),
                view.value(ofAttribute: "id", namespaceURI: "urn:m"), view.value(ofAttribute: "i"),
                view.value(ofAttribute: "id", namespaceURI: "urn:other"), view.value(ofAttribute: "empty"),
                view.value(ofAttribute: "amp"), view.value(ofAttribute: "id\u{0}"), view.value(ofAttribute: ""),
            ]
            byIndex = (0..<view.attributeCount).map { view.attribute(at: $0) }
        })
        try parser.feed(Array(text.utf8))
        try parser.finish()
        #expect(found == ["1", "2", "3", nil, nil, "", "a&b", nil, nil])
        #expect(byIndex.map(\.value) == ["1", "2", "3", "", "a&b"])
        #expect(byIndex[2].name == XMLName(localName: "id", prefix: "m", namespaceURI: "urn:m"))
    }

    @Test func limitsHoldAsForOwnedEvents() throws {
        let deep = String(repeating: "<a>", count: 20) + String(repeating: "</a>", count: 20)
        let depth = satchelError { _ = try Self.seen(Array(deep.utf8), limits: Limits(maxDepth: 10)) }
        #expect(depth?.limit == "maxDepth")
        let long = "<a b=\"" + String(repeating: "x", count: 200) + "\"/>"
        let attribute = satchelError { _ = try Self.seen(Array(long.utf8), limits: Limits(maxStringBytes: 100)) }
        #expect(attribute?.limit == "maxStringBytes")
        let external = #"<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>"#
        #expect(satchelError { _ = try Self.seen(Array(external.utf8)) }?.code == .unsupportedFormat)
    }

    /// Truncated, mismatched and non-XML input fails through views as through owned events: the
    /// same code at the same offset, whatever the chunking.
    @Test(arguments: [0, 1, 7])
    func badDocumentsFailAsWithOwnedEvents(chunkSize: Int) throws {
        for text in ["<a><b>text", "<a></b>", "<a x='1' x='2'/>", "\u{0}<a/>", "<a>&undefined;</a>", ""] {
            let bytes = Array(text.utf8)
            let viewed = satchelError { _ = try Self.seen(bytes, chunkSize: chunkSize) }
            let owned = satchelError { _ = try XMLSamples.events(bytes, chunkSize: chunkSize) }
            #expect(viewed != nil, "\(text)")
            #expect(
                viewed?.code == owned?.code && viewed?.offset == owned?.offset, "\(text): \(String(describing: viewed))"
            )
        }
    }

    struct Stop: Error {}

    @Test func whatTheHandlerThrowsStopsTheParse() throws {
        var starts = 0
        let parser = XMLEventReader(viewHandler: { view in
            guard view.kind == .startElement else { return }
            starts += 1
            if starts == 2 { throw Stop() }
        })
        #expect(throws: Stop.self) { try parser.feed(Array("<a><b/><c/><d/></a>".utf8)) }
        #expect(starts == 2)
    }

    @Test func aViewUsedAfterItsCallStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var kept: XMLEventView?
            let parser = XMLEventReader(viewHandler: { view in kept = view })
            try parser.feed(Array("<a x=\"1\">text</a>".utf8))
            try parser.finish()
            _ = kept?.value(ofAttribute: "x")
        }
    }

    @Test func anAttributeIndexOutOfRangeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let parser = XMLEventReader(viewHandler: { view in
                if view.kind == .startElement { _ = view.attribute(at: view.attributeCount) }
            })
            try parser.feed(Array("<a x=\"1\"/>".utf8))
        }
    }
}
