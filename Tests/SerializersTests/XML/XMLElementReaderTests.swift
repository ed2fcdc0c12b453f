// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// The elements a path matches in an XML document, fed whole, byte by byte and split at every
/// position.
@Suite struct XMLElementReaderTests {
    static let feed = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:m="urn:meta">
          <title>Example</title>
          <entry m:rank="1"><title>First &amp; best</title><id>urn:1</id><!-- note --></entry>
          <m:entry><title>not an Atom entry</title></m:entry>
          <entry><title><![CDATA[<Second>]]></title><id>urn:2</id><link href="/2"/></entry>
        </feed>
        """

    func elements(
        _ text: String, _ path: String, namespaces: [String: String] = [:], limits: Limits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (records: [Value], error: SatchelError?) {
        RecordStreamTestSupport.agreeingRecords(
            { try! XMLElementReader(path: path, namespaces: namespaces, limits: limits) }, text,
            sourceLocation: sourceLocation)
    }

    /// The element objects under `$xml` of the whole document, found by `names` from the root.
    func wholeDocumentElements(_ text: String, named name: String) throws -> [Value] {
        let document = try XMLDocumentPayload(parsing: Array(text.utf8))
        var found: [Value] = []
        func walk(_ value: Value) {
            guard case let .object(object) = value else { return }
            if object["name"] == .string(name) { return found.append(value) }
            if case let .array(children)? = object["children"] { children.forEach(walk) }
        }
        if case let .object(root) = document.canonicalValue, case let .array(top)? = root["children"] {
            top.forEach(walk)
        }
        return found
    }

    @Test func aPathGivesTheElementsAsTheWholeDocumentHasThem() throws {
        // A bare name matches in any namespace: Atom's entries and the other one.
        let read = elements(Self.feed, "/feed/entry")
        #expect(read.error == nil)
        #expect(read.records.count == 3)
        #expect(read.records.map { $0["name"] } == ["entry", "m:entry", "entry"])
        let atom = elements(Self.feed, "/a:feed/a:entry", namespaces: ["a": "http://www.w3.org/2005/Atom"])
        #expect(atom.records == (try wholeDocumentElements(Self.feed, named: "entry")))
        #expect(atom.records.count == 2)
        #expect(read.records.first?["attributes"] == ["m:rank": "1"])
        #expect(read.records.first?["namespace"] == "http://www.w3.org/2005/Atom")
        let namespaced = elements(
            Self.feed, "/a:feed/m:entry", namespaces: ["a": "http://www.w3.org/2005/Atom", "m": "urn:meta"])
        #expect(namespaced.records.count == 1 && namespaced.records.first?["name"] == "m:entry")
        #expect(elements(Self.feed, "/feed/*").records.count == 4)
        #expect(elements(Self.feed, "//title").records.count == 4)
        #expect(elements(Self.feed, "/feed//title").records.count == 4)
        #expect(elements(Self.feed, "/feed/title").records.count == 1)
    }

    @Test func matchesDoNotNest() {
        let rss = "<rss><channel><item><item>inner</item></item><item>2</item></channel></rss>"
        let read = elements(rss, "//item")
        #expect(read.records.count == 2)
        #expect(read.records.first?["children"]?[0]?["name"] == "item")
    }

    struct Entry: Decodable, Equatable {
        var title: String
        var id: String
    }

    @Test func elementsDecodeIntoModels() throws {
        let bytes = Array(Self.feed.utf8)
        for size in [1, 5, bytes.count] {
            let reader = try XMLElementReader(path: "/a:feed/a:entry", namespaces: ["a": "http://www.w3.org/2005/Atom"])
            var entries: [Entry] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                try reader.feed(Array(bytes[start..<min(start + size, bytes.count)]), as: Entry.self) {
                    entries.append($0)
                }
            }
            try reader.finish(as: Entry.self) { entries.append($0) }
            #expect(entries == [Entry(title: "First & best", id: "urn:1"), Entry(title: "<Second>", id: "urn:2")])
            #expect(reader.recordCount == 2)
        }
        struct Numbered: Decodable { var n: Int }
        let reader = try XMLElementReader(path: "/r/e")
        var numbers: [Int] = []
        let error = #expect(throws: SatchelError.self) {
            try reader.feed(Array("<r><e><n>1</n></e><e><n>x</n></e><e><n>3</n></e></r>".utf8), as: Numbered.self) {
                numbers.append($0.n)
            }
        }
        #expect(numbers == [1])
        #expect(error?.message.hasPrefix("/r/e[2]: ") == true && error?.keyPath?.contains("n") == true)
    }

    @Test func aMalformedDocumentDeliversTheElementsBeforeTheError() throws {
        let inside = elements("<feed><entry>1</entry><entry>2</entry><entry><b></entry></feed>", "/feed/entry")
        #expect(inside.records.count == 2)
        #expect(inside.error?.code == .syntaxError)
        #expect(inside.error?.message.hasPrefix("/feed/entry[3]: ") == true)
        #expect(inside.error?.offset != nil && inside.error?.line == 1)
        let after = elements("<feed><entry>1</entry><x></feed>", "/feed/entry")
        #expect(after.records.count == 1 && after.error?.message.hasPrefix("after /feed/entry[1]: ") == true)
        let cut = elements("<feed><entry>1</entry><entry>2", "/feed/entry")
        #expect(cut.records.count == 1 && cut.error?.code == .truncatedInput)
        let nothing = elements("<feed><item/></feed>", "/feed/entry")
        #expect(nothing.error?.code == .valueNotFound && nothing.error?.message.contains("/feed/entry") == true)
        #expect(elements("", "/feed/entry").error != nil)
    }

    @Test func hostileDocumentsAreRefusedAsWholeDocumentsAre() {
        let external = """
            <!DOCTYPE feed [<!ENTITY e SYSTEM "file:///etc/passwd">]><feed><entry>&e;</entry></feed>
            """
        #expect(elements(external, "/feed/entry").error?.code == .unsupportedFormat)
        var laughs = "<!DOCTYPE feed [<!ENTITY a \"aaaaaaaaaa\">"
        for level in 1...9 {
            laughs +=
                "<!ENTITY \(Character(Unicode.Scalar(97 + level)!)) \""
                + String(repeating: "&\(Character(Unicode.Scalar(96 + level)!));", count: 10) + "\">"
        }
        laughs += "]><feed><x>&j;</x><entry>1</entry></feed>"
        let bomb = elements(laughs, "/feed/entry")
        #expect(bomb.records.isEmpty && bomb.error?.code == .limitExceeded)
        var limits = Limits()
        limits.maxDepth = 4
        let deep = elements("<feed><a><b><c><d>x</d></c></b></a><entry>1</entry></feed>", "/feed/entry", limits: limits)
        #expect(deep.records.isEmpty && deep.error?.limit == "maxDepth")
        limits = Limits()
        limits.maxRecordBytes = 16
        let large = elements(
            "<feed><entry>1</entry><entry>\(String(repeating: "x", count: 64))</entry></feed>", "/feed/entry",
            limits: limits)
        #expect(large.records.count == 1 && large.error?.limit == "maxRecordBytes", "\(large)")
        limits = Limits()
        limits.maxRecords = 1
        let many = elements("<feed><entry>1</entry><entry>2</entry></feed>", "/feed/entry", limits: limits)
        #expect(many.records.count == 1 && many.error?.limit == "maxRecords")
    }

    @Test func pathsAreCheckedWhenTheReaderIsMade() {
        let tooDeep = String(repeating: "/a", count: 64)
        for bad in ["feed/entry", "/feed//", "/feed/entry[1]", "/feed/@id", "/x:feed", "", tooDeep] {
            #expect(throws: SatchelError.self, "\(bad)") { try XMLElementReader(path: bad) }
        }
    }
}
