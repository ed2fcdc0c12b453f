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

        struct User: Decodable, Equatable { var id: UInt64; var name: String }
        let user = try JSONReader().read(User.self, from: Array(#"{"id":1,"name":"Ann"}"#.utf8))
        #expect(user == User(id: 1, name: "Ann"))

        let failure = #expect(throws: SatchelError.self) { try JSONReader().read(Array("[1,\n 2,\n x]".utf8)) }
        #expect(failure?.description == "syntaxError: expected a value, found 'x' (at byte 9, line 3, column 2)")
    }

    @Test func readmeMultipartExampleHolds() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-readme-\(UUID().uuidString).mp4").path
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
