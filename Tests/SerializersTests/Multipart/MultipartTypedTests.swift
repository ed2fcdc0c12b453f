// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

@Suite("multipart/form-data straight into models")
struct MultipartTypedTests {
    struct Upload: Decodable {
        var title: String
        var count: Int
        var public_: Bool
        var tags: [String]
        var when: Date
        var avatar: Data
        var note: String?
        enum CodingKeys: String, CodingKey {
            case title, count, tags, when, avatar, note
            case public_ = "public"
        }
    }

    static let avatar: [UInt8] = (0..<200).map { UInt8($0 % 251) }

    static func body() throws -> (bytes: [UInt8], contentType: MediaType) {
        var form = MultipartFormData(boundary: try MultipartBoundary("typed-boundary"))
        form.append("Holidays", name: "title")
        form.append("3", name: "count")
        form.append("on", name: "public")
        form.append("sea", name: "tags")
        form.append("sun", name: "tags")
        form.append("2026-11-25T10:00:00Z", name: "when")
        form.append(String(repeating: "long text ", count: 10), name: "note")
        try form.append(
            Self.avatar, name: "avatar", filename: "a.png", mediaType: MediaType(type: "image", subtype: "png"))
        return (try form.makeBodyStream().readAll(), form.contentType)
    }

    @Test("fields by name, numbers and booleans from text, repeated names as arrays, files as Data")
    func decodesAForm() throws {
        let (bytes, contentType) = try Self.body()
        let registry = Registry.standard()
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: contentType.description])
        let upload = try registry.decode(Upload.self, response: response, body: bytes)
        #expect(upload.title == "Holidays" && upload.count == 3 && upload.public_ && upload.tags == ["sea", "sun"])
        #expect(upload.when == Date(timeIntervalSince1970: 1_795_600_800))
        #expect(upload.avatar == Data(Self.avatar) && upload.note == String(repeating: "long text ", count: 10))
    }

    struct Spilled: Decodable {
        var title: String
        var note: String
        var avatar: TemporaryFile
    }

    @Test("a part spilled to disk is a TemporaryFile; errors name the field")
    func spilledAndErrors() throws {
        let (bytes, contentType) = try Self.body()
        // Parts above 50 bytes go to disk: the 100-byte note (a field) still decodes as text, the
        // 200-byte avatar (a file) is a TemporaryFile.
        let serializer = MultipartResponseSerializer(options: MultipartReader.Options(memoryThreshold: 50))
        let spilled = try #require(
            try serializer.decode(Spilled.self, from: bytes, contentType: contentType, limits: .default))
        #expect(spilled.note == String(repeating: "long text ", count: 10) && spilled.title == "Holidays")
        #expect(spilled.avatar.size == 200 && FileManager.default.fileExists(atPath: spilled.avatar.path))
        #expect(try spilled.avatar.readAll(limit: 1000) == Self.avatar)

        struct Wrong: Decodable { var count: Bool }
        let error = try #require(throws: SatchelError.self) {
            try MultipartResponseSerializer().decode(
                Wrong.self, from: bytes, contentType: contentType, limits: .default)
        }
        #expect(error.code == .typeMismatch && error.keyPath == "$.count" && error.message.contains("\"3\""))
        struct FileAsText: Decodable { var title: TemporaryFile }
        let notSpilled = try #require(throws: SatchelError.self) {
            try MultipartResponseSerializer().decode(
                FileAsText.self, from: bytes, contentType: contentType, limits: .default)
        }
        #expect(notSpilled.code == .typeMismatch && notSpilled.keyPath == "$.title", "\(notSpilled)")
    }

    @Test("a spilled text field larger than maxStringBytes is refused, not read whole")
    func oversizedSpilledField() throws {
        let (bytes, contentType) = try Self.body()
        var limits = Limits.default
        limits.maxStringBytes = 64
        let serializer = MultipartResponseSerializer(options: MultipartReader.Options(memoryThreshold: 50))
        struct Note: Decodable { var note: String }
        let error = try #require(throws: SatchelError.self) {
            try serializer.decode(Note.self, from: bytes, contentType: contentType, limits: limits)
        }
        #expect(error.code == .limitExceeded, "\(error)")
    }
}
