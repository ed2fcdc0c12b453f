// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

@Suite("XMLModelDecoder: XML straight into models, XMLCoder's mapping")
struct XMLModelDecoderTests {
    struct Book: Decodable, Equatable {
        struct Price: Decodable, Equatable {
            var currency: String
            var value: Double
            enum CodingKeys: String, CodingKey {
                case currency
                case value = ""
            }
        }
        var id: Int
        var title: String
        var tag: [String]
        var price: Price
        var published: Date
        var inPrint: Bool
        var cover: Data
        var subtitle: String?
        var note: String?
        var series: [String]
        var empty: String
    }

    static let book = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <book id="7">
          <title>  Dune </title>
          <tag>sf</tag>
          <tag>classic</tag>
          <price currency="EUR">9.5</price>
          <published>1965-08-01T00:00:00Z</published>
          <inPrint>true</inPrint>
          <cover>AAH6</cover>
          <note/>
          <empty></empty>
        </book>
        """.utf8)

    @Test("attributes, elements, repeated elements, text with attributes, scalars from text")
    func decodesABook() throws {
        let book = try XMLModelDecoder().decode(Book.self, from: Self.book)
        #expect(
            book
                == Book(
                    id: 7, title: "Dune", tag: ["sf", "classic"], price: .init(currency: "EUR", value: 9.5),
                    published: Date(timeIntervalSince1970: -139_449_600), inPrint: true, cover: Data([0, 1, 250]),
                    subtitle: nil, note: nil, series: [], empty: ""))
    }

    struct Feed: Decodable, Equatable {
        struct Entry: Decodable, Equatable {
            var title: String
            var link: Link
        }
        struct Link: Decodable, Equatable { var href: String }
        var title: String
        var entry: [Entry]
    }

    @Test("namespaces: local names by default, prefixed names when kept; keys by strategy")
    func namespacesAndKeys() throws {
        let atom = Array(
            """
            <a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>News</a:title>
            <a:entry><a:title>One</a:title><a:link href="/1"/></a:entry>
            <a:entry><a:title>Two</a:title><a:link href="/2"/></a:entry></a:feed>
            """.utf8)
        let feed = try XMLModelDecoder().decode(Feed.self, from: atom)
        #expect(feed.entry.map(\.link.href) == ["/1", "/2"] && feed.title == "News")
        var prefixed = XMLModelDecoder()
        prefixed.keepsNamespacePrefixes = true
        let missing = try #require(throws: SatchelError.self) { try prefixed.decode(Feed.self, from: atom) }
        #expect(missing.code == .valueNotFound && missing.keyPath == "$.title")
        struct Prefixed: Decodable {
            var aTitle: String; enum CodingKeys: String, CodingKey { case aTitle = "a:title" }
        }
        #expect(try prefixed.decode(Prefixed.self, from: atom).aTitle == "News")

        struct Snake: Decodable, Equatable { var postCode: Int; var cityName: String }
        var snake = XMLModelDecoder()
        snake.keyDecoding = .convertFromSnakeCase
        #expect(
            try snake.decode(Snake.self, from: Array(#"<a post_code="150"><city_name>Oslo</city_name></a>"#.utf8))
                == Snake(postCode: 150, cityName: "Oslo"))
        var strategies = XMLModelDecoder()
        strategies.dateDecoding = .secondsSince1970
        strategies.trimsWhitespace = false
        struct Stamp: Decodable { var at: Date; var text: String }
        let stamp = try strategies.decode(Stamp.self, from: Array("<s><at>86400</at><text> x </text></s>".utf8))
        #expect(stamp.at == Date(timeIntervalSince1970: 86400) && stamp.text == " x ")
    }

    @Test("errors say the key path; hostile documents are refused as through the tree")
    func errors() throws {
        let decoder = XMLModelDecoder()
        let cases: [(String, SatchelError.Code, String)] = [
            (#"<b id="x"><title>t</title></b>"#, .typeMismatch, "$.id"),
            (#"<b id="99999999999999999999"/>"#, .numberOutOfRange, "$.id"),
            (#"<b><title>t</title></b>"#, .valueNotFound, "$.id"),
        ]
        struct Small: Decodable { var id: Int; var title: String? }
        for (text, code, keyPath) in cases {
            let error = try #require(throws: SatchelError.self) {
                try decoder.decode(Small.self, from: Array(text.utf8))
            }
            #expect(error.code == code && error.keyPath == keyPath, "\(text): \(error)")
        }
        let nested = try #require(throws: SatchelError.self) {
            try decoder.decode(
                Book.self,
                from: Array(
                    String(decoding: Self.book, as: UTF8.self).replacingOccurrences(of: "true", with: "maybe").utf8))
        }
        #expect(nested.code == .typeMismatch && nested.keyPath == "$.inPrint" && nested.message.contains("\"maybe\""))
        let syntax = try #require(throws: SatchelError.self) {
            try decoder.decode(Small.self, from: Array("<b>\n<c></b>".utf8))
        }
        #expect(syntax.code == .syntaxError && syntax.line == 2)
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE b [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
            <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]><b id="1"><title>&f;&f;&f;&f;</title></b>
            """
        let refused = try #require(throws: SatchelError.self) { try decoder.decode(Small.self, from: Array(bomb.utf8)) }
        #expect(refused.code == .limitExceeded || refused.code == .syntaxError, "\(refused)")
        let deep = String(repeating: "<a>", count: 600) + String(repeating: "</a>", count: 600)
        let tooDeep = try #require(throws: SatchelError.self) { try decoder.decode(Small.self, from: Array(deep.utf8)) }
        #expect(tooDeep.code == .limitExceeded)
    }

    @Test("the registry decodes XML responses straight into models")
    func throughTheRegistry() throws {
        let registry = Registry.standard()
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/atom+xml"])
        let body = Array(#"<feed><title>T</title><entry><title>A</title><link href="/a"/></entry></feed>"#.utf8)
        let feed = try registry.decode(Feed.self, response: response, body: body)
        #expect(feed == Feed(title: "T", entry: [.init(title: "A", link: .init(href: "/a"))]))
        let latin = HTTPResponse(status: .ok, headerFields: [.contentType: "text/xml; charset=iso-8859-1"])
        struct Name: Decodable { var name: String }
        #expect(
            try registry.decode(
                Name.self, response: latin, body: Array("<p><name>".utf8) + [0xE9] + Array("</name></p>".utf8)
            ).name == "é")
    }
}

@Suite("XMLModelEncoder: models to XML, read back by XMLModelDecoder")
struct XMLModelEncoderTests {
    struct Book: Codable, Equatable {
        struct Price: Codable, Equatable {
            var currency: String
            var value: Double
            enum CodingKeys: String, CodingKey {
                case currency
                case value = ""
            }
        }
        var id: Int
        var title: String
        var tag: [String]
        var price: Price
        var published: Date
        var cover: Data
        var subtitle: String?
    }

    static let book = Book(
        id: 7, title: "Dune & <Sons>", tag: ["sf", "classic"], price: .init(currency: "EUR", value: 9.5),
        published: Date(timeIntervalSince1970: -139_449_600), cover: Data([0, 1, 250]), subtitle: nil)

    @Test("attributes, repeated elements, text, escaping; the decoder reads it back")
    func roundTrip() throws {
        var encoder = XMLModelEncoder()
        encoder.attributeKeys = ["id", "currency"]
        let bytes = try encoder.encode(Self.book, rootElement: "book")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text
                == #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
                + #"<book id="7"><title>Dune &amp; &lt;Sons&gt;</title><tag>sf</tag><tag>classic</tag><price currency="EUR">9.5</price><published>1965-08-01T00:00:00Z</published><cover>AAH6</cover></book>"#,
            "\(text)")
        #expect(try XMLModelDecoder().decode(Book.self, from: bytes) == Self.book)
        // libxml2 reads it as well-formed XML with the same structure.
        let document = try XMLDocumentPayload(parsing: bytes)
        #expect(try document.string(xpath: "string(/book/price/@currency)") == "EUR")
    }

    @Test("key encoding; names XML cannot hold are errors with their key path")
    func keysAndErrors() throws {
        struct Snake: Codable, Equatable { var postCode: Int; var cityName: String }
        var encoder = XMLModelEncoder()
        encoder.keyEncoding = .convertToSnakeCase
        encoder.attributeKeys = ["postCode"]
        let bytes = try encoder.encode(Snake(postCode: 150, cityName: "Oslo"), rootElement: "address")
        #expect(
            String(decoding: bytes, as: UTF8.self).hasSuffix(
                #"<address post_code="150"><city_name>Oslo</city_name></address>"#))
        var decoder = XMLModelDecoder()
        decoder.keyDecoding = .convertFromSnakeCase
        #expect(try decoder.decode(Snake.self, from: bytes) == Snake(postCode: 150, cityName: "Oslo"))

        let badName = try #require(throws: SatchelError.self) {
            try XMLModelEncoder().encode(["a b": 1], rootElement: "r")
        }
        #expect(badName.code == .unencodableValue && badName.keyPath?.contains("a b") == true, "\(badName)")
        let control = try #require(throws: SatchelError.self) {
            try XMLModelEncoder().encode(["note": "bell \u{07}"], rootElement: "r")
        }
        #expect(control.code == .unencodableValue)
    }
}
