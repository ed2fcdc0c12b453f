// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

@Suite("Registry.decode(_:response:body:): typed decoding by Content-Type")
struct TypedDecodingTests {
    struct User: Codable, Equatable {
        var id: Int
        var name: String
    }

    let registry = Registry.standard()

    func response(_ contentType: String?, status: HTTPResponse.Status = .ok) -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: status, headerFields: fields)
    }

    @Test("JSON and form bodies decode with their own typed decoders")
    func typedFormats() throws {
        let json = Array(#"{"id": 7, "name": "Ann"}"#.utf8)
        #expect(
            try registry.decode(User.self, response: response("application/json"), body: json)
                == User(id: 7, name: "Ann"))
        // A form holds text: only the form's typed decoder reads `7` as an Int (the Value path
        // would find the string "7").
        let form = Array("id=7&name=Ann".utf8)
        #expect(
            try registry.decode(User.self, response: response("application/x-www-form-urlencoded"), body: form)
                == User(id: 7, name: "Ann"))
        let valuePath = try #require(throws: SatchelError.self) {
            try registry.decode(response: response("application/x-www-form-urlencoded"), body: form).decode(User.self)
        }
        #expect(valuePath.code == .typeMismatch)
        // UTF-16 JSON is transcoded first, as for a Value.
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in #"{"id":1,"name":"é"}"#.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(
            try registry.decode(User.self, response: response("application/json"), body: utf16)
                == User(id: 1, name: "é"))
    }

    @Test("sniffed types and property lists decode with the same results")
    func valuePath() throws {
        let json = Array(#"{"id": 7, "name": "Ann"}"#.utf8)
        #expect(try registry.decode(User.self, response: response(nil), body: json) == User(id: 7, name: "Ann"))
        #expect(
            try registry.decode(User.self, response: response("application/octet-stream"), body: json)
                == User(id: 7, name: "Ann"))
        let plist = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>id</key><integer>7</integer><key>name</key><string>Ann</string></dict></plist>
            """.utf8)
        #expect(
            try registry.decode(User.self, response: response("application/x-plist"), body: plist)
                == User(id: 7, name: "Ann"))
    }

    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var when: Date
        var blob: Data
        var tags: [String]
    }

    static let record = Record(
        id: 7, name: "Ann é", when: Date(timeIntervalSince1970: 1_795_600_800), blob: Data([0, 1, 0xFA]),
        tags: ["a", "b"])

    /// Decodes `body` straight into `Record`, and through the incremental reader fed 7 bytes at a
    /// time and the serializer's mapping of the value it made; both must give ``record``.
    func expectSameModelBothWays(_ body: [UInt8], contentType: String) throws {
        let head = response(contentType)
        #expect(try registry.decode(Record.self, response: head, body: body) == Self.record, "\(contentType)")
        let plan = registry.dispatchingSerializer.plan(for: head, body: body, validation: registry.validation)
        let typed = try #require(plan.typedDecoder.map { (serializer: $0, contentType: plan.contentType) })
        let reader = try #require(
            typed.serializer.makeIncrementalReader(contentType: typed.contentType, limits: .default))
        for start in stride(from: 0, to: body.count, by: 7) {
            try reader.feed(Array(body[start..<min(body.count, start + 7)]))
        }
        let value = try #require(try reader.finish())
        #expect(
            try typed.serializer.decode(Record.self, from: value, limits: .default) == Self.record, "\(contentType)")
    }

    @Test("a body decoded as it arrives maps into the model its bytes give: JSON, XML, multipart")
    func incrementalPathGivesTheSameModel() throws {
        try expectSameModelBothWays(
            Array(#"{"id":7,"name":"Ann é","when":"2026-11-25T10:00:00Z","blob":"AAH6","tags":["a","b"]}"#.utf8),
            contentType: "application/json")
        try expectSameModelBothWays(
            Array(
                """
                <record id="7"><name>Ann é</name><when>2026-11-25T10:00:00Z</when><blob>AAH6</blob>\
                <tags>a</tags><tags>b</tags></record>
                """.utf8),
            contentType: "application/xml")
        var form = MultipartFormData(boundary: try MultipartBoundary("parity-boundary"))
        form.append("7", name: "id")
        form.append("Ann é", name: "name")
        form.append("2026-11-25T10:00:00Z", name: "when")
        form.append("a", name: "tags")
        form.append("b", name: "tags")
        try form.append([0, 1, 0xFA], name: "blob", filename: "b.bin", mediaType: .octetStream)
        try expectSameModelBothWays(try form.makeBodyStream().readAll(), contentType: form.contentType.description)
        // A value of another format is refused by name.
        let xml = XMLDocumentResponseSerializer()
        let refused = try #require(throws: SatchelError.self) {
            try xml.decode(Record.self, from: ["id": 7] as Value, limits: .default)
        }
        #expect(refused.code == .typeMismatch && refused.message.contains("XML document"))
        let notParts = try #require(throws: SatchelError.self) {
            try MultipartResponseSerializer().decode(Record.self, from: .string("x"), limits: .default)
        }
        #expect(notParts.code == .typeMismatch && notParts.message.contains("multipart parts"))
    }

    @Test("errors: key path, status, content type, no value; each carries the response")
    func errors() throws {
        let mismatch = try #require(throws: SatchelError.self) {
            try registry.decode(
                User.self, response: response("application/json"), body: Array(#"{"id":"7","name":"x"}"#.utf8))
        }
        #expect(mismatch.code == .typeMismatch && mismatch.keyPath == "$.id" && mismatch.response?.status == .ok)
        #expect(mismatch.body == Array(#"{"id":"7","name":"x"}"#.utf8))
        let syntax = try #require(throws: SatchelError.self) {
            try registry.decode(User.self, response: response("application/json"), body: Array(#"{"id":7,}"#.utf8))
        }
        #expect(syntax.code == .syntaxError && syntax.offset == 8 && syntax.response != nil)
        let status = try #require(throws: SatchelError.self) {
            try registry.decode(
                User.self, response: response("application/json", status: .notFound),
                body: Array(#"{"id":7,"name":"x"}"#.utf8))
        }
        #expect(status.code == .unacceptableStatusCode && status.decodedValue != nil)
        let type = try #require(throws: SatchelError.self) {
            try registry.decode(User.self, response: response("application/pdf"), body: Array("%PDF".utf8))
        }
        #expect(type.code == .unacceptableContentType)
        for blank in [[], Array(" \r\n".utf8)] as [[UInt8]] {
            let none = try #require(throws: SatchelError.self) {
                try registry.decode(User.self, response: response("application/json"), body: blank)
            }
            #expect(none.code == .valueNotFound && none.message.contains("no value"))
        }
        let form = try #require(throws: SatchelError.self) {
            try registry.decode(
                User.self, response: response("application/x-www-form-urlencoded"), body: Array("id=x&name=a".utf8))
        }
        #expect(form.code == .typeMismatch && form.keyPath == "$.id" && form.response != nil)
    }
}
