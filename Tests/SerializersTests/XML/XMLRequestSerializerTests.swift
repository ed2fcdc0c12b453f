// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// The request serializer: the canonical form round-trips, plain values map to elements that an
/// independent parser reads back, and what XML cannot hold is refused.
@Suite struct XMLRequestSerializerTests {
    @Test func canonicalFormRoundTrips() throws {
        let serializer = XMLRequestSerializer()
        for text in [
            XMLSamples.feed, "<a xmlns='u' xmlns:p='v'><p:b p:x='1' y='&quot;2&#10;'/><c xmlns=''>t\r\n</c></a>",
            "<?pi data?><r><![CDATA[a]]>]]&gt;<![CDATA[]]]]><![CDATA[>]]></r><!--after-->",
        ] {
            let decoded = try XMLSamples.canonical(text)
            let written = try serializer.encodeBody(decoded)
            #expect(
                try XMLSamples.canonical(String(decoding: written, as: UTF8.self)) == decoded,
                "\(String(decoding: written, as: UTF8.self))")
            // The payload itself is written by libxml2 and reads back the same.
            let payload = try XMLDocumentPayload(parsing: Array(text.utf8))
            let dumped = try serializer.encodeBody(.payload(payload))
            #expect(try XMLDocumentPayload(parsing: dumped) == payload)
            #expect(try XMLSamples.xmllint(["--noout"], input: written).status == 0)
        }
    }

    @Test func namespaceIsDeclaredWhenNotInScope() throws {
        let value: Value = [
            "$xml": [
                "children": [["name": "p:a", "namespace": "urn:x", "children": [["name": "b", "namespace": "urn:y"]]]]
            ]
        ]
        let written = String(decoding: try XMLRequestSerializer().encodeBody(value), as: UTF8.self)
        #expect(
            written == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<p:a xmlns:p=\"urn:x\"><b xmlns=\"urn:y\"/></p:a>")
        let back = try XMLSamples.canonical(written)
        #expect(back["$xml"]?["children"]?[0]?["children"]?[0]?["namespace"] == "urn:y")
    }

    @Test func plainValuesMapToElements() throws {
        let value: Value = [
            "order": [
                "@id": 7, "customer": "Zoë & <co>", "paid": true, "total": 12.5, "note": nil,
                "items": [["@sku": "a1", "#text": "pen"], ["@sku": "b2", "#text": "ink"]],
                "raw": .bytes([0, 1, 2]),
            ]
        ]
        let written = try XMLRequestSerializer().encodeBody(value)
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.fromstring(sys.stdin.buffer.read())
            print(root.tag, root.get('id'))
            for child in root:
                print(child.tag, sorted(child.attrib.items()), child.text)
            """
        let peer = try XMLSamples.python(script, input: written)
        #expect(
            peer == """
                order 7
                customer [] Zoë & <co>
                paid [] true
                total [] 12.5
                note [] None
                items [('sku', 'a1')] pen
                items [('sku', 'b2')] ink
                raw [] AAEC

                """)
        let serialized = try XMLRequestSerializer().serialize(
            ["a": 1], into: HTTPRequest(method: .post, scheme: "http", authority: "h", path: "/"))
        #expect(serialized.request.headerFields[.contentType] == "application/xml; charset=utf-8")
        #expect(
            String(decoding: serialized.body ?? [], as: UTF8.self)
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>1</a>")
        let wrapped = try XMLRequestSerializer(rootElementName: "list").encodeBody([1, "x"])
        #expect(String(decoding: wrapped, as: UTF8.self).hasSuffix("<list><item>1</item><item>x</item></list>"))
    }

    @Test func unencodableValuesAreRefusedWithKeyPath() throws {
        let serializer = XMLRequestSerializer()
        let badName = satchelError { try serializer.encodeBody(["a": ["1x": 1]]) }
        #expect(badName?.code == .unencodableValue)
        #expect(badName?.keyPath == "$.a.1x")
        let control = satchelError { try serializer.encodeBody(["a": ["b": "x\u{1}y"]]) }
        #expect(control?.keyPath == "$.a.b")
        let prefix = satchelError { try serializer.encodeBody(["p:a": 1]) }
        #expect(prefix?.message.contains("not declared") == true)
        #expect(satchelError { try serializer.encodeBody(["a": ["b": [[1]]]]) }?.keyPath == "$.a.b[0]")
        #expect(satchelError { try serializer.encodeBody(["a": ["@x": [1]]]) }?.code == .unencodableValue)
        let twoRoots: Value = ["$xml": ["children": [["name": "a"], ["name": "b"]]]]
        #expect(satchelError { try serializer.encodeBody(twoRoots) }?.code == .unencodableValue)
        let badComment: Value = ["$xml": ["children": [["comment": "a--b"], ["name": "a"]]]]
        #expect(satchelError { try serializer.encodeBody(badComment) }?.keyPath == "$.$xml.children[0]")
        #expect(satchelError { try serializer.encodeBody(["$xml": ["children": []]]) }?.code == .unencodableValue)
    }
}
