// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// The event form: the push parser's events, any chunk size, the event serializer.
@Suite struct XMLEventTests {
    @Test func eventsOfFeed() throws {
        let events = try XMLSamples.events(Array(XMLSamples.feed.utf8))
        let atom = "http://www.w3.org/2005/Atom"
        #expect(events.first == .comment(" before "))
        #expect(
            events[1]
                == .startElement(
                    XMLName(localName: "feed", namespaceURI: atom),
                    attributes: [
                        XMLAttribute(
                            name: XMLName(localName: "version", prefix: "m", namespaceURI: "urn:meta"), value: "2")
                    ],
                    namespaces: [
                        XMLNamespaceDeclaration(prefix: nil, uri: atom),
                        XMLNamespaceDeclaration(prefix: "m", uri: "urn:meta"),
                    ]))
        #expect(events.contains(.text("News from Ada & co")))
        #expect(events.contains(.cdata("<raw> & ")))
        #expect(events.contains(.processingInstruction(target: "render", data: "fast")))
        #expect(events.contains(.endElement(XMLName(localName: "tag", prefix: "m", namespaceURI: "urn:meta"))))
        #expect(events.last == .endElement(XMLName(localName: "feed", namespaceURI: atom)))
        let starts = events.filter { if case .startElement = $0 { true } else { false } }.count
        let ends = events.filter { if case .endElement = $0 { true } else { false } }.count
        #expect(starts == 7 && ends == 7)
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func anyChunkSizeGivesTheSameEvents(chunkSize: Int) throws {
        let bytes = Array(XMLSamples.feed.utf8)
        #expect(try XMLSamples.events(bytes, chunkSize: chunkSize) == XMLSamples.events(bytes))
    }

    @Test(arguments: [1, 5, 4096])
    func incrementalDecodersMatchWholeDecoding(chunkSize: Int) throws {
        let bytes = Array(XMLSamples.feed.utf8)
        for serializer in [XMLDocumentResponseSerializer() as any ResponseSerializer, XMLEventResponseSerializer()] {
            let whole = try serializer.decode(bytes, contentType: nil, limits: .default)
            let decoder = try #require(serializer.makeIncrementalReader(contentType: nil, limits: .default))
            let chunked = try XMLSamples.decode(bytes, with: decoder, chunkSize: chunkSize)
            #expect(chunked?.canonicalJSON() == whole?.canonicalJSON())
        }
    }

    @Test func utf16WithByteOrderMarkByteByByte() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<a>\u{E9}</a>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(
            try XMLSamples.events(bytes, chunkSize: 1) == [
                .startElement(XMLName(localName: "a"), attributes: [], namespaces: []), .text("\u{E9}"),
                .endElement(XMLName(localName: "a")),
            ])
    }

    @Test func textRunIsOneEvent() throws {
        let text = "<a>one &amp; two &#x41; <![CDATA[x]]><![CDATA[y]]>three</a>"
        let events = try XMLSamples.events(Array(text.utf8), chunkSize: 1)
        #expect(events.dropFirst().dropLast() == [.text("one & two A "), .cdata("xy"), .text("three")])
    }

    @Test func handlerErrorStopsTheParse() throws {
        struct Stop: Error {}
        var seen = 0
        let parser = XMLEventReader { event in
            seen += 1
            if case .endElement = event { throw Stop() }
        }
        #expect(throws: Stop.self) { try parser.feed(Array("<a><b/><c/><d/></a>".utf8)) }
        #expect(seen == 3)
        #expect(throws: Stop.self) { try parser.finish() }
    }

    @Test func agreesWithPythonElementTree() throws {
        // Python's xml.etree (expat) lists each element's tag, attributes and text.
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.fromstring(sys.stdin.buffer.read())
            for e in root.iter():
                print(e.tag, sorted(e.attrib.items()), repr(e.text or ''))
            """
        let text = "<r xmlns:p='urn:p'><p:a k='1' p:q='2'>x &lt; y</p:a><b>caf\u{E9}<c/></b></r>"
        let peer = try XMLSamples.python(script, input: Array(text.utf8))
        // Python prints in document order: tag, sorted attributes, text before the first child.
        var printed: [String] = []
        var open: [Int] = []
        for event in try XMLSamples.events(Array(text.utf8)) {
            switch event {
            case .startElement(let name, let attributes, _):
                let tag = name.namespaceURI.map { "{\($0)}\(name.localName)" } ?? name.localName
                let pairs = attributes.map { attribute in
                    "('\(attribute.name.namespaceURI.map { "{\($0)}\(attribute.name.localName)" } ?? attribute.name.localName)', '\(attribute.value)')"
                }.sorted()
                printed.append("\(tag) [\(pairs.joined(separator: ", "))] ")
                open.append(printed.count - 1)
            case .text(let text):
                if let index = open.last, printed[index].hasSuffix(" ") { printed[index] += "'\(text)'" }
            case .endElement:
                if let index = open.popLast(), printed[index].hasSuffix(" ") { printed[index] += "''" }
            default:
                break
            }
            if case .startElement = event, open.count > 1, let parent = open.dropLast().last,
                printed[parent].hasSuffix(" ")
            {
                printed[parent] += "''"
            }
        }
        #expect(printed.joined(separator: "\n") + "\n" == peer)
    }
}
