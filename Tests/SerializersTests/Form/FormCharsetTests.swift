// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// Forms in legacy charsets (AFNetworking's `stringEncoding`): written as the bytes of the charset,
/// read by the declared charset; Python's urllib with the same codec is the peer.
@Suite("Form bodies in other charsets")
struct FormCharsetTests {
    /// Python's `urlencode` of `pairs` in `codec`, unencodable characters as `&#N;`, spaces as %20.
    static func python(_ pairs: [[String]], codec: String) throws -> String {
        let script = """
            import json, sys, urllib.parse
            pairs = [tuple(pair) for pair in json.loads(sys.argv[1])]
            print(urllib.parse.urlencode(pairs, encoding=sys.argv[2], errors="xmlcharrefreplace", quote_via=urllib.parse.quote, safe="~"), end="")
            """
        let (status, output) = try VenvPython.run(
            script, [String(decoding: try JSONEncoder().encode(pairs), as: UTF8.self), codec])
        try #require(status == 0)
        return output
    }

    @Test(
        "the request serializer writes the charset's bytes and names it",
        arguments: [
            ("shift_jis", "cp932"), ("euc-kr", "cp949"), ("gb18030", "gb18030"), ("windows-1251", "cp1251"),
            ("iso-8859-7", "iso8859_7"), ("big5", "big5hkscs"),
        ])
    func writes(name: String, codec: String) throws {
        let charset = try #require(Charset(name: name))
        var options = FormRequestSerializer.Options()
        options.charset = charset
        let serializer = FormRequestSerializer(options: options)
        let text = ["日本語 カナ", "한국어", "中文", "Привет", "Ελληνικά", "a b&c"]
        let parameters = Value.object(
            ValueObject(uniqueKeysWithValues: text.enumerated().map { ("k\($0.offset)", .string($0.element)) }))
        let body = try serializer.encodeBody(parameters)
        let expected = try Self.python(text.enumerated().map { ["k\($0.offset)", $0.element] }, codec: codec)
        #expect(String(decoding: body, as: UTF8.self) == expected)
        #expect(serializer.contentType.description == "application/x-www-form-urlencoded; charset=\(name)")
        let request = HTTPRequest(method: .post, scheme: "http", authority: "x", path: "/")
        let serialized = try serializer.serialize(parameters, into: request)
        #expect(serialized.request.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=\(name)")

        // Read back by the declared charset, as a Value and as a model.
        let registry = Registry.standard()
        let response = HTTPResponse(
            status: .ok, headerFields: [.contentType: "application/x-www-form-urlencoded; charset=\(name)"])
        let decoded = try registry.decode(response: response, body: body).get()
        let original = try registry.decode(
            response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/x-www-form-urlencoded"]),
            body: try FormRequestSerializer().encodeBody(parameters)
        ).get()
        // What the charset can write comes back as it was; the rest as its character reference.
        for (key, member) in try #require(original?.objectValue) {
            let written = try #require(decoded?.objectValue?[key]?.stringValue)
            let bytes = try charset.encode(member.stringValue ?? "", unencodable: .characterReference)
            #expect(written == (try charset.decode(bytes[...])), "\(name) \(key)")
        }
    }

    @Test("UTF-8 stays the default; UTF-16 writes UTF-8 as browsers do; errors say where")
    func defaultsAndErrors() throws {
        #expect(FormRequestSerializer().contentType.description == "application/x-www-form-urlencoded")
        var options = FormRequestSerializer.Options()
        options.charset = .utf16LittleEndian
        let wide = FormRequestSerializer(options: options)
        #expect(try wide.encodeBody(["q": "é"]) == Array("q=%C3%A9".utf8))
        #expect(wide.contentType.description == "application/x-www-form-urlencoded")
        options.charset = .isoLatin1
        options.unencodableCharacters = .fail
        let strict = FormRequestSerializer(options: options)
        let unencodable = try #require(throws: SatchelError.self) { try strict.encodeBody(["q": "€"]) }
        #expect(unencodable.code == .unencodableValue && unencodable.message.contains("U+20AC"))

        let registry = Registry.standard()
        func response(_ charset: String) -> HTTPResponse {
            HTTPResponse(
                status: .ok, headerFields: [.contentType: "application/x-www-form-urlencoded; charset=\(charset)"])
        }
        let cut = registry.decode(response: response("shift_jis"), body: Array("a=1&q=%93%FA%96".utf8))
        #expect(cut.error?.code == .invalidEncoding && cut.error?.offset == 12, "\(String(describing: cut.error))")
        let unknown = registry.decode(response: response("x-klingon"), body: Array("a=1".utf8))
        #expect(unknown.error?.code == .unsupportedFormat)
        struct Query: Codable, Equatable { var q: String }
        #expect(
            try registry.decode(Query.self, response: response("sjis"), body: Array("q=%93%FA%96%7B".utf8))
                == Query(q: "日本"))
        var decoder = URLEncodedFormDecoder()
        decoder.charset = .windows1251
        #expect(try decoder.decode(Query.self, from: "q=%CF%F0%E8") == Query(q: "При"))
        var encoder = URLEncodedFormEncoder()
        encoder.charset = .windows1251
        #expect(try encoder.encode(Query(q: "При")) == "q=%CF%F0%E8")
    }
}
