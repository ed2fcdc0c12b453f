// SPDX-License-Identifier: Apache-2.0
import CLibXML2Baseline
import Foundation
import Satchel

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// XML parsing: Satchel's document form against libxml2's own `xmlReadMemory` (and Foundation's
/// `XMLDocument` for reference), and Satchel's event form against Foundation's `XMLParser` and
/// a raw libxml2 SAX push parse with empty callbacks. Each contender runs alone in its own
/// process (``IsolatedContender``), twice, in alternating order: in one process, each tree
/// parser inherits the heap the previous one left, which moved the ratios by tens of percent.
struct XMLBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The command line (`--seconds`, `--iterations`), passed on to the child processes.
    let options: BenchmarkOptions

    /// Child processes per contender and input (even, so each order runs as often).
    static let rounds = 2

    /// The XML files, in report order (`scripts/corpus xml`).
    static let names = ["feed.xml", "catalog.xml"]

    /// Guards, then times every XML file; returns the document and the event tables.
    func run() throws -> [ComparisonTable] {
        var document = ComparisonTable(
            title: "XML parse to a usable tree: Satchel vs raw libxml2 (each contender in its own process)",
            satchelCall: "XMLDocumentPayload(parsing: bytes)", peerName: "libxml2",
            peerCall: "satchel_bench_xml_read_memory (xmlReadMemory, then xmlFreeDoc)", sizeNote: "the XML file",
            target: 0.9)
        var foundationDocument = ComparisonTable(
            title: "XML parse to a tree: Satchel vs Foundation (reference)",
            satchelCall: "XMLDocumentPayload(parsing: bytes)", peerName: "XMLDocument",
            peerCall: "XMLDocument(data: data)", sizeNote: "the XML file")
        var events = ComparisonTable(
            title: "XML event parse: Satchel vs Foundation",
            satchelCall: "XMLEventReader { … }.feed(bytes); finish()", peerName: "XMLParser",
            peerCall: "XMLParser(data: data) with a counting delegate, parse()", sizeNote: "the XML file", target: 3)
        var views = ComparisonTable(
            title: "XML event parse, views: Satchel vs Foundation",
            satchelCall: "XMLEventReader(viewHandler: { … }).feed(bytes); finish(), counting elements and text bytes",
            peerName: "XMLParser",
            peerCall: "XMLParser(data: data) with a delegate counting elements and text bytes, parse()",
            sizeNote: "the XML file", target: 3)
        var rawEvents = ComparisonTable(
            title: "XML event parse: Satchel vs raw libxml2 SAX",
            satchelCall: "XMLEventReader { … }.feed(bytes); finish()", peerName: "libxml2 SAX",
            peerCall: "satchel_bench_xml_sax_push (empty SAX2 callbacks, one chunk)", sizeNote: "the XML file")
        for name in Self.names {
            let file = try read(name)
            try check(file)
            Progress.note("xml \(file.name)")
            let bytes = file.bytes
            let samples = try IsolatedContender.measure(
                [
                    .satchelDocument, .libxml2Document, .foundationDocument, .satchelEvents, .foundationEvents,
                    .libxml2SAX, .satchelEventViews,
                ] as [XMLContender],
                input: path(name), rounds: options.quick ? 1 : Self.rounds, options: options)
            document.rows.append(
                Comparison(input: file.name, bytes: bytes.count, satchel: samples[0], peer: samples[1]))
            foundationDocument.rows.append(
                Comparison(input: file.name, bytes: bytes.count, satchel: samples[0], peer: samples[2]))
            events.rows.append(Comparison(input: file.name, bytes: bytes.count, satchel: samples[3], peer: samples[4]))
            rawEvents.rows.append(
                Comparison(input: file.name, bytes: bytes.count, satchel: samples[3], peer: samples[5]))
            views.rows.append(Comparison(input: file.name, bytes: bytes.count, satchel: samples[6], peer: samples[4]))
        }
        return [document, foundationDocument, events, views, rawEvents]
    }

    /// The path of `Corpus/xml/NAME`.
    private func path(_ name: String) -> String {
        corpus.directory.appendingPathComponent("xml/\(name)").path
    }

    /// Reads `Corpus/xml/NAME`.
    private func read(_ name: String) throws -> Corpus.File {
        let url = URL(fileURLWithPath: path(name))
        guard let data = try? Data(contentsOf: url) else {
            throw BenchmarkFailure.corpus("cannot read \(url.path) (run scripts/corpus xml first)")
        }
        return Corpus.File(name: name, bytes: [UInt8](data), data: data)
    }

    /// Fails unless every contender reads `file` and all count the same elements; Satchel's two
    /// forms must also give the same canonical value.
    private func check(_ file: Corpus.File) throws {
        let payload = try XMLDocumentPayload(parsing: file.bytes)
        let satchelCount = Int(try payload.string(xpath: "count(//*)")) ?? -1
        var counts = [
            "libxml2 xmlReadMemory": Self.readMemory(file.bytes, elements: 0),
            "libxml2 SAX": Self.saxPush(file.bytes).elements,
            "Satchel events": try Self.satchelEvents(file.bytes),
            "Satchel event views": try Self.satchelEventViews(file.bytes).elements,
            "Foundation XMLParser": try Self.foundationEvents(file.data),
        ]
        let document = try XMLDocument(data: file.data)
        counts["Foundation XMLDocument"] = try document.nodes(forXPath: "//*").count
        for (name, count) in counts where count != satchelCount {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): Satchel's document has \(satchelCount) elements, \(name) counted \(count)")
        }
        let fromEvents = try XMLEventResponseSerializer().decode(file.bytes, contentType: nil, limits: .default)
        guard fromEvents == .object([XMLDocumentPayload.kind: payload.canonicalValue]) else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): the event form and the document form give different values")
        }
    }

    /// Satchel's event parse; returns the number of elements.
    static func satchelEvents(_ bytes: [UInt8]) throws -> Int {
        var elements = 0
        let parser = XMLEventReader { event in
            if case .startElement = event { elements += 1 }
        }
        try parser.feed(bytes)
        try parser.finish()
        return elements
    }

    /// Satchel's event parse through views; returns the number of elements and of text bytes
    /// (the Foundation delegate's work).
    static func satchelEventViews(_ bytes: [UInt8]) throws -> (elements: Int, characters: Int) {
        var elements = 0
        var characters = 0
        let parser = XMLEventReader(viewHandler: { view in
            switch view.kind {
            case .startElement: elements += 1
            case .text: characters += view.withUTF8 { $0.count }
            default: break
            }
        })
        try parser.feed(bytes)
        try parser.finish()
        return (elements, characters)
    }

    /// Foundation's `XMLParser`; returns the number of elements.
    static func foundationEvents(_ data: Data) throws -> Int {
        let delegate = CountingDelegate()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        guard parser.parse() else {
            throw BenchmarkFailure.guardFailed("XMLParser failed: \(String(describing: parser.parserError))")
        }
        return delegate.elements
    }

    /// `xmlReadMemory`; returns the element count when asked (else 0), -1 on failure.
    static func readMemory(_ bytes: [UInt8], elements: Int?) -> Int {
        var count = 0
        let status = withUnsafeMutablePointer(to: &count) { counter in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    satchel_bench_xml_read_memory($0.baseAddress, $0.count, elements == nil ? nil : counter)
                }
            }
        }
        return status == 0 ? count : -1
    }

    /// The raw SAX push parse; the element count, -1 on failure.
    static func saxPush(_ bytes: [UInt8]) -> (status: Int32, elements: Int) {
        var count = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { satchel_bench_xml_sax_push($0.baseAddress, $0.count, &count) }
        }
        return (status, status == 0 ? count : -1)
    }
}

/// Counts `XMLParser` start tags and touches text, as an event consumer would.
private final class CountingDelegate: NSObject, XMLParserDelegate {
    var elements = 0
    var characters = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        elements += 1
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        characters += string.utf8.count
    }
}
