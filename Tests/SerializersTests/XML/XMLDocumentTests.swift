// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// The document form: parsing, the canonical value, XPath.
@Suite struct XMLDocumentTests {
    @Test func canonicalValueOfFeed() throws {
        let value = try XMLSamples.canonical(XMLSamples.feed)
        let children = try #require(value["$xml"]?["children"]?.arrayValue)
        #expect(children.count == 2)
        #expect(children[0] == .object(["comment": " before "]))
        let feed = children[1]
        #expect(feed["name"] == "feed")
        #expect(feed["namespace"] == "http://www.w3.org/2005/Atom")
        #expect(feed["namespaces"] == .object(["": "http://www.w3.org/2005/Atom", "m": "urn:meta"]))
        #expect(feed["attributes"] == .object(["m:version": "2"]))
        let title = try #require(feed["children"]?[1])
        #expect(title["attributes"] == .object(["type": "text"]))
        #expect(title["children"] == .array(["News from Ada & co"]))
        let entry = try #require(feed["children"]?[3]?["children"])
        #expect(entry[1] == .object(["cdata": "<raw> & "]))
        #expect(entry[2]?["name"] == "m:tag")
        #expect(entry[2]?["namespace"] == "urn:meta")
        let second = try #require(feed["children"]?[5]?["children"])
        #expect(second[0]?["children"] == .array(["Caf\u{E9} \u{263A}"]))
        #expect(second[1] == .object(["target": "render", "data": "fast"]))
        #expect(second[2] == .object(["comment": " inner "]))
    }

    @Test func xpathWithNamespaces() throws {
        let document = try XMLSamples.document(XMLSamples.feed)
        let namespaces = ["a": "http://www.w3.org/2005/Atom", "m": "urn:meta"]
        #expect(
            try document.string(xpath: "/a:feed/a:entry[2]/a:title", namespaces: namespaces) == "Caf\u{E9} \u{263A}")
        #expect(try document.string(xpath: "count(//a:entry)", namespaces: namespaces) == "2")
        #expect(try document.string(xpath: "//a:entry/@m:id", namespaces: namespaces) == "1")
        let ids = try document.nodes(xpath: "//a:entry/@m:id", namespaces: namespaces)
        #expect(ids == ["1", "2"])
        let tags = try document.nodes(xpath: "//m:tag", namespaces: namespaces)
        #expect(tags.count == 1)
        #expect(tags.first?["children"] == .array(["a"]))
        // Without the prefix the default namespace matches nothing, as XPath 1.0 says.
        #expect(try document.nodes(xpath: "/feed").isEmpty)
        #expect(try document.string(xpath: "/nothing") == "")
    }

    @Test func xpathErrors() throws {
        let document = try XMLSamples.document(XMLSamples.feed)
        let invalid = satchelError { try document.nodes(xpath: "//a[") }
        #expect(invalid?.code == .syntaxError)
        #expect(invalid?.message.contains("//a[") == true)
        let prefix = satchelError { try document.nodes(xpath: "//zz:entry") }
        #expect(prefix?.code == .syntaxError)
        let number = satchelError { try document.nodes(xpath: "count(//*)") }
        #expect(number?.code == .typeMismatch)
    }

    @Test func xpathAgreesWithXmllint() throws {
        let bytes = Array(XMLSamples.feed.utf8)
        let document = try XMLDocumentPayload(parsing: bytes)
        for expression in [
            "string(//*[local-name()='title'][2])", "count(//*)", "string(//@*[local-name()='id'][2])",
            "sum(//@*[local-name()='id'])",
        ] {
            let peer = try XMLSamples.xmllint(["--noent", "--nonet", "--xpath", expression], input: bytes)
            #expect(peer.status == 0)
            #expect(
                try document.string(xpath: expression) == peer.output.trimmingCharacters(in: .newlines), "\(expression)"
            )
        }
    }

    @Test func concurrentXPathOnOneDocument() async throws {
        let document = try XMLSamples.document(XMLSamples.feed)
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try document.string(xpath: "string(//*[local-name()='entry'][\(index % 2 + 1)]/@*)")
                }
            }
            var results: [String] = []
            for try await result in group { results.append(result) }
            #expect(results.sorted() == Array(repeating: "1", count: 32) + Array(repeating: "2", count: 32))
        }
    }

    @Test func serializerDecodesPayloadAndBlankBodies() throws {
        let serializer = XMLDocumentResponseSerializer()
        let value = try serializer.decode(Array("<a>1</a>".utf8), contentType: nil, limits: .default)
        let payload = try #require(value?.xmlDocument)
        #expect(payload.rootElementName == "a")
        #expect(
            value?.canonicalJSON()
                == #"{"$xml":{"children":[{"name":"a","namespace":null,"namespaces":{},"attributes":{},"children":["1"]}]}}"#
        )
        #expect(try serializer.decode([], contentType: nil, limits: .default) == nil)
        #expect(try serializer.decode(Array(" \r\n\t".utf8), contentType: nil, limits: .default) == nil)
        let decoder = try #require(serializer.makeIncrementalReader(contentType: nil, limits: .default))
        #expect(try decoder.finish() == nil)
    }

    @Test func warningsDoNotFailTheDocument() throws {
        // A relative namespace URI is only a libxml2 warning.
        let value = try XMLSamples.canonical("<r xmlns:a='relative'><a:b/></r>")
        #expect(value["$xml"]?["children"]?[0]?["children"]?[0]?["namespace"] == "relative")
    }

    @Test func charsetParameterOverridesDeclaration() throws {
        let latin1: [UInt8] = Array("<?xml version=\"1.0\"?><a>caf".utf8) + [0xE9] + Array("</a>".utf8)
        let type = try MediaType(parsing: "application/xml; charset=ISO-8859-1")
        let value = try XMLDocumentResponseSerializer().decode(latin1, contentType: type, limits: .default)
        let document = try #require(value?.xmlDocument)
        #expect(try document.string(xpath: "/a") == "caf\u{E9}")
        let events = try XMLEventResponseSerializer().decode(latin1, contentType: type, limits: .default)
        #expect(events?["$xml"]?["children"]?[0]?["children"] == .array(["caf\u{E9}"]))
    }

    @Test func standardRegistryDecodesAndEncodesXML() throws {
        let registry = Registry.standard()
        let accept = try MediaRangeList(parsing: registry.acceptHeader)
        #expect(accept.accepts(try MediaType(parsing: "application/xml")))
        #expect(accept.accepts(try MediaType(parsing: "text/xml")))
        let encoded = try registry.encode(["note": ["to": "B"]], as: try MediaType(parsing: "application/xml"))
        #expect(String(decoding: encoded.body, as: UTF8.self).hasSuffix("<note><to>B</to></note>"))
        for type in ["application/xml", "text/xml; charset=utf-8", "application/soap+xml", "image/svg+xml"] {
            let response = HTTPResponse(status: .ok, headerFields: [.contentType: type])
            let decoded = registry.decode(response: response, body: encoded.body)
            #expect(decoded.serializerName == "xml", "\(type)")
            let document = try #require(try decoded.get()?.xmlDocument)
            #expect(try document.string(xpath: "/note/to") == "B")
        }
        let failed = registry.decode(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/xml"]),
            body: Array("<a>".utf8))
        #expect(failed.error?.code == .truncatedInput)
    }
}
