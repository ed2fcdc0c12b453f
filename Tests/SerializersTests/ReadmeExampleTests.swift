// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// The README's Swift example, kept compiling and true.
@Suite struct ReadmeExampleTests {
    @Test func readmeExampleHolds() throws {
        let registry = Registry.standard()
        let head = HTTPRequest(method: .post, scheme: "https", authority: "api.example.com", path: "/users")
        let request = try registry.serialize(["name": "Ann", "tags": ["a", "b"]], into: head, as: .json)
        #expect(request.body == Array(#"{"name":"Ann","tags":["a","b"]}"#.utf8))
        #expect(request.request.headerFields[.contentType] == "application/json")

        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json; charset=utf-8"])
        let decoded = registry.decode(response: response, body: Array(#"{"id":18446744073709551615}"#.utf8))
        #expect(decoded.value?["id"]?.uint64Value == 18_446_744_073_709_551_615)

        struct User: Codable, Equatable { var id: UInt64; var name: String }
        let user = try JSONReader().read(User.self, from: Array(#"{"id":1,"name":"Ann"}"#.utf8))
        #expect(user == User(id: 1, name: "Ann"))
        var models = JSONModelDecoder()
        models.keyDecoding = .convertFromSnakeCase
        let sameUser = try models.decode(User.self, from: Array(#"{"id":1,"name":"Ann"}"#.utf8))
        #expect(sameUser == user)
        let userJSON = try JSONModelEncoder().encode(user)
        #expect(userJSON == Array(#"{"id":1,"name":"Ann"}"#.utf8))

        let failure = #expect(throws: SatchelError.self) { try JSONReader().read(Array("[1,\n 2,\n x]".utf8)) }
        #expect(failure?.description == "syntaxError: expected a value, found 'x' (at byte 9, line 3, column 2)")
    }

    @Test func readmeModelExamplesHold() throws {
        let registry = Registry.standard()
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json; charset=utf-8"])
        struct User: Decodable, Equatable { var id: UInt64; var name: String }
        let body = Array(#"{"id":1,"name":"Ann"}"#.utf8)
        let typed = try registry.decode(User.self, response: response, body: body)
        #expect(typed == User(id: 1, name: "Ann"))

        struct Search: Codable, Equatable { var q: String; var page: Int }
        let query = try URLEncodedFormEncoder().encode(Search(q: "satchel", page: 2))
        #expect(query == "page=2&q=satchel")
        let search = try URLEncodedFormDecoder().decode(Search.self, from: "q=satchel&page=2")
        #expect(search == Search(q: "satchel", page: 2))

        struct Book: Codable { var id: Int; var title: String }
        let xmlBytes = Array(#"<book id="7"><title>Dune</title></book>"#.utf8)
        let book = try XMLModelDecoder().decode(Book.self, from: xmlBytes)
        #expect(book.id == 7 && book.title == "Dune")
        let xml = try XMLModelEncoder().encode(book, rootElement: "book")
        #expect(String(decoding: xml, as: UTF8.self).hasSuffix("<book><id>7</id><title>Dune</title></book>"))
        let bytes: [UInt8] = [0x93, 0xFA, 0x96, 0x7B]
        let text = try Charset(name: "sjis")!.decode(bytes[...])
        #expect(text == "日本")
    }

    @Test func readmeMultipartExampleHolds() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-readme-\(UUID().uuidString).mp4"
        ).path
        try Data(repeating: 7, count: 100_000).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        var form = MultipartFormData()
        form.append("Ann", name: "user")
        try form.append(fileAt: path, name: "video")
        let body = try form.makeBodyStream()
        let bytes = try body.readAll()
        #expect(body.length == Int64(bytes.count))
        #expect(String(decoding: bytes, as: UTF8.self).contains("Content-Type: video/mp4"))
    }
}

/// The README's XML, plist, image and batch example, kept compiling and true.
@Suite struct ReadmeFormatsExampleTests {
    @Test func readmeFormatsExampleHolds() throws {
        let body = Array(#"<feed xmlns="http://www.w3.org/2005/Atom"><title>News</title></feed>"#.utf8)
        let feed = try XMLDocumentPayload(parsing: body)
        let title = try feed.string(xpath: "/a:feed/a:title", namespaces: ["a": "http://www.w3.org/2005/Atom"])
        #expect(title == "News")
        var starts = 0
        let parser = XMLEventReader { event in if case .startElement = event { starts += 1 } }
        try parser.feed(Array(body.prefix(10)))
        try parser.feed(Array(body.dropFirst(10)))
        try parser.finish()
        #expect(starts == 2)

        let plist = try PropertyListWriter(format: .binary).write(["name": "Zoë", "n": 3])
        #expect(try PropertyListReader().read(plist) == ["name": "Zoë", "n": 3])

        let jpeg = try ImageSamples.load("jpeg-exif-8.jpg")
        let image = try ImageReader(options: .init(output: .rgba8, scale: .quarter)).read(jpeg)
        #expect(image.width == 17 && image.height == 12)
        #expect(image.orientation.rawValue == 8)
        #expect(image.pixels.count == 17 * 12 * 4)

        let registry = Registry.standard()
        let batchBody = BatchResponseTests.batch([
            Array("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n\r\n{\"error\":\"gone\"}".utf8)
        ]).map { $0 }
        let withID = Array(
            String(decoding: batchBody, as: UTF8.self)
                .replacingOccurrences(
                    of: "application/http\r\n", with: "application/http\r\nContent-ID: <response-item1>\r\n"
                ).utf8)
        let batchResponse = HTTPResponse(status: .ok, headerFields: [.contentType: "multipart/mixed; boundary=batch"])
        let parts = registry.decode(response: batchResponse, body: withID).value?.multipartParts
        let answer = parts?.response(answering: "item1")?.value.httpMessage
        #expect(answer?.status == 404)
        #expect(answer?.value == ["error": "gone"])
        #expect(answer?.error?.code == .unacceptableStatusCode)
    }
}
