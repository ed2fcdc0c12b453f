// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@Suite("Multipart builder: layout, length, rewinding")
struct MultipartBuilderTests {
    typealias Support = MultipartBuilderSupport

    // MARK: - Exact layout

    /// RFC 7578 §4 and the HTML standard's example: a text field and a file, boundary AaB03x.
    /// Every line ends in CRLF; each part is a delimiter line, its headers, a blank line and its
    /// body; the CRLF before the next delimiter belongs to that delimiter; the close delimiter
    /// has two trailing dashes.
    @Test("a field and a file are laid out as RFC 7578 describes")
    func exactLayoutOfFieldAndFile() throws {
        var form = MultipartFormData(boundary: try Support.boundary())
        form.append("Joe Blow", name: "field1")
        try form.append(Array("...contents of file1.txt...".utf8), name: "pics", filename: "file1.txt")

        let expected =
            "--AaB03x\r\n"
            + "Content-Disposition: form-data; name=\"field1\"\r\n"
            + "\r\n"
            + "Joe Blow\r\n"
            + "--AaB03x\r\n"
            + "Content-Disposition: form-data; name=\"pics\"; filename=\"file1.txt\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
            + "...contents of file1.txt...\r\n"
            + "--AaB03x--\r\n"
        let stream = try form.makeBodyStream()
        // 10 + 47 + 2 + 10 + 10 + 67 + 26 + 2 + 29 + 12 bytes, counted line by line.
        #expect(stream.length == 215)
        let body = try stream.bytes()
        #expect(Support.text(body) == expected)
        #expect(body.count == 215)
        #expect(form.contentType.description == "multipart/form-data; boundary=AaB03x")
    }

    /// RFC 2388 §4.3's example of several files in one field, written as a nested
    /// multipart/mixed part.
    @Test("a nested multipart/mixed part is written with its own boundary")
    func exactLayoutOfNestedMixed() throws {
        var files = MultipartFormData(subtype: .mixed, boundary: try Support.boundary("BbC04y"))
        try files.append(
            MultipartPart(
                filename: "file1.txt", dispositionType: "file",
                body: .bytes(Array("... contents of file1.txt ...".utf8))))
        try files.append(
            MultipartPart(
                filename: "file2.gif", dispositionType: "file", body: .bytes(Array("...contents of file2.gif...".utf8)))
        )
        var form = MultipartFormData(boundary: try Support.boundary())
        form.append("Larry", name: "submit-name")
        try form.append(files, name: "files")

        let nested =
            "--BbC04y\r\n"
            + "Content-Disposition: file; filename=\"file1.txt\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
            + "... contents of file1.txt ...\r\n"
            + "--BbC04y\r\n"
            + "Content-Disposition: file; filename=\"file2.gif\"\r\n"
            + "Content-Type: image/gif\r\n"
            + "\r\n"
            + "...contents of file2.gif...\r\n"
            + "--BbC04y--\r\n"
        let expected =
            "--AaB03x\r\n"
            + "Content-Disposition: form-data; name=\"submit-name\"\r\n"
            + "\r\n"
            + "Larry\r\n"
            + "--AaB03x\r\n"
            + "Content-Disposition: form-data; name=\"files\"\r\n"
            + "Content-Type: multipart/mixed; boundary=BbC04y\r\n"
            + "\r\n"
            + nested
            + "\r\n--AaB03x--\r\n"
        let stream = try form.makeBodyStream()
        let body = try stream.bytes()
        #expect(Support.text(body) == expected)
        #expect(stream.length == Int64(expected.utf8.count))
    }

    @Test("headers come in a fixed order: Content-Disposition, Content-Type, then custom headers")
    func headerOrder() throws {
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(
            MultipartPart(
                name: "doc", filename: "a.json", mediaType: .json,
                headers: [.init(name: "X-Checksum", value: "abc"), .init(name: "Content-Language", value: "en")],
                body: .bytes([])))
        let body = Support.text(try form.bytes())
        #expect(
            body == "--AaB03x\r\n"
                + "Content-Disposition: form-data; name=\"doc\"; filename=\"a.json\"\r\n"
                + "Content-Type: application/json\r\n"
                + "X-Checksum: abc\r\n"
                + "Content-Language: en\r\n"
                + "\r\n"
                + "\r\n--AaB03x--\r\n")
    }

    @Test("a custom Content-Type or Content-Disposition takes the generated one's place")
    func customHeadersReplaceGenerated() throws {
        var form = MultipartFormData(subtype: .related, boundary: try Support.boundary())
        try form.append(
            MultipartPart(
                headers: [
                    .init(name: "Content-ID", value: "<root>"),
                    .init(name: "content-type", value: "application/json; charset=utf-8"),
                    .init(name: "Content-Disposition", value: "inline"),
                ],
                body: .bytes(Array("{}".utf8))))
        let body = Support.text(try form.bytes())
        #expect(
            body == "--AaB03x\r\n"
                + "Content-Disposition: inline\r\n"
                + "content-type: application/json; charset=utf-8\r\n"
                + "Content-ID: <root>\r\n"
                + "\r\n{}\r\n--AaB03x--\r\n")
    }

    @Test("a body without parts is the close delimiter alone")
    func emptyBody() throws {
        let form = MultipartFormData(boundary: try Support.boundary())
        let stream = try form.makeBodyStream()
        #expect(stream.length == 12)
        #expect(Support.text(try stream.bytes()) == "--AaB03x--\r\n")
    }

    @Test("parts of mixed bodies get attachment dispositions only when named")
    func mixedDispositions() throws {
        var form = MultipartFormData(subtype: .mixed, boundary: try Support.boundary())
        try form.append(MultipartPart(mediaType: .plainText, body: .bytes(Array("hi".utf8))))
        try form.append(MultipartPart(filename: "b.txt", body: .bytes([])))
        let body = Support.text(try form.bytes())
        #expect(
            body == "--AaB03x\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
                + "--AaB03x\r\nContent-Disposition: attachment; filename=\"b.txt\"\r\nContent-Type: text/plain\r\n\r\n"
                + "\r\n--AaB03x--\r\n")
        #expect(form.contentType.description == "multipart/mixed; boundary=AaB03x")
    }

    // MARK: - Form parameters

    @Test("form parameters become parts named and ordered as the form serializer writes them")
    func parametersFollowFormNaming() throws {
        let parameters: Value = [
            "user": ["name": "Ann", "tags": ["a", "b/c"]], "page": 2, "q": .null, "ok": true,
        ]
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(parameters: parameters)
        let pairs = try FormWriter().pairs(from: parameters)
        #expect(form.parts.map(\.name) == pairs.map(\.key))
        #expect(form.parts.map(\.name) == ["ok", "page", "q", "user[name]", "user[tags][]", "user[tags][]"])
        let body = Support.text(try form.bytes())
        #expect(body.contains("name=\"user[tags][]\"\r\n\r\nb/c\r\n"))
        #expect(body.contains("name=\"q\"\r\n\r\n\r\n--AaB03x"))
        #expect(body.contains("name=\"ok\"\r\n\r\n1\r\n"))

        var unsorted = FormWriter.Options()
        unsorted.sortsKeys = false
        var inOrder = MultipartFormData(boundary: try Support.boundary())
        try inOrder.append(parameters: parameters, encoder: FormWriter(options: unsorted))
        #expect(inOrder.parts.first?.name == "user[name]")
    }

    @Test("parameters that are not an object are refused as the form serializer refuses them")
    func parametersMustBeAnObject() throws {
        var form = MultipartFormData()
        let error = #expect(throws: SatchelError.self) { try form.append(parameters: ["a", "b"]) }
        #expect(error?.code == .invalidArgument)
    }

    // MARK: - Length

    @Test("the announced length equals the bytes produced, for many mixes of parts", arguments: 0..<40)
    func lengthMatchesOutput(seed: Int) throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        var generator = SeededGenerator(seed: UInt64(seed))
        let form = try Self.randomForm(using: &generator, directory: directory, depth: 0)
        let stream = try form.makeBodyStream()
        let body = try Support.read(stream, pieceSize: 4093)
        #expect(stream.length == Int64(body.count), "mix \(seed): \(form.parts.map(\.body))")
    }

    @Test("a part of unknown length makes the whole length unknown, with the same bytes")
    func unknownLengthIsNil() throws {
        let content = Support.pseudoRandomBytes(100_000, seed: 7)
        var known = MultipartFormData(boundary: try Support.boundary())
        known.append("x", name: "a")
        try known.append(name: "blob", length: Int64(content.count)) { ScriptedStream(content, pieceSize: 1000) }
        var unknown = MultipartFormData(boundary: try Support.boundary())
        unknown.append("x", name: "a")
        try unknown.append(name: "blob", length: nil) { ScriptedStream(content, pieceSize: 1000) }

        let knownStream = try known.makeBodyStream()
        let unknownStream = try unknown.makeBodyStream()
        #expect(knownStream.length != nil)
        #expect(unknownStream.length == nil)
        #expect(try unknownStream.bytes() == knownStream.bytes())

        var nested = MultipartFormData(boundary: try Support.boundary("outer"))
        try nested.append(unknown, name: "inner")
        #expect(try nested.makeBodyStream().length == nil)
    }

    // MARK: - Rewinding and piece sizes

    @Test("rewinding yields identical bytes, and reading in 1, 7, 4096 or 65536-byte pieces too")
    func rewindAndPieceSizes() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        var generator = SeededGenerator(seed: 99)
        var form = try Self.randomForm(using: &generator, directory: directory, depth: 0)
        let big = Support.pseudoRandomBytes(200_000, seed: 3)
        let path = directory + "/big.bin"
        try Data(big).write(to: URL(fileURLWithPath: path))
        try form.append(fileAt: path, name: "big")
        try form.append(name: "stream", length: nil) { ScriptedStream(big, pieceSize: 5000) }

        let stream = try form.makeBodyStream()
        let reference = try Support.read(stream, pieceSize: 65536)
        #expect(reference.count > 400_000)
        for size in [1, 7, 4096, 65536] {
            try stream.rewind()
            #expect(try Support.read(stream, pieceSize: size) == reference, "piece size \(size)")
        }
        // Rewinding in the middle of a part starts over too.
        try stream.rewind()
        _ = try Support.read(ScriptedPrefix(stream, limit: 300_000), pieceSize: 4096)
        try stream.rewind()
        #expect(try Support.read(stream, pieceSize: 4096) == reference)
        #expect(stream.isRewindable)
    }

    // MARK: - Random forms

    /// A form of 0 to 6 parts of every kind, with files written into `directory`.
    static func randomForm(
        using generator: inout SeededGenerator, directory: String, depth: Int
    ) throws -> MultipartFormData {
        var form = MultipartFormData(subtype: depth == 0 ? .formData : .mixed)
        let count = Int(generator.next() % 7)
        for index in 0..<count {
            let name = ["field", "naïve ✓", "a\"b", "x\r\ny", "user[tags][]"][Int(generator.next() % 5)]
            let size = [0, 1, 17, 1000, 70_000][Int(generator.next() % 5)]
            let bytes = Support.pseudoRandomBytes(size, seed: generator.next()).map { $0 == UInt8(ascii: "-") ? 0 : $0 }
            switch generator.next() % 8 {
            case 0:
                form.append(String(repeating: "é", count: size % 50), name: name)
            case 1:
                try form.append(bytes, name: name, filename: ["a.png", "résumé.pdf", "../x"][index % 3])
            case 2:
                let path = "\(directory)/file-\(depth)-\(index)-\(generator.next()).txt"
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                try form.append(fileAt: path, name: name)
            case 3:
                try form.append(name: name, filename: "s.bin", length: Int64(bytes.count)) {
                    ScriptedStream(bytes, pieceSize: 333)
                }
            case 4 where depth < 2:
                try form.append(randomForm(using: &generator, directory: directory, depth: depth + 1), name: name)
            case 5:
                try form.append(
                    MultipartPart(
                        name: name, mediaType: MediaType("application/x-thing; q=\"a b\""),
                        headers: [.init(name: "X-Index", value: "\(index)")], body: .bytes(bytes)))
            case 6:
                try form.append([], name: name, filename: "empty.txt")
            default:
                let path = "\(directory)/empty-\(depth)-\(index)-\(generator.next())"
                try Data().write(to: URL(fileURLWithPath: path))
                try form.append(fileAt: path, name: name)
            }
        }
        return form
    }
}

/// Reads at most `limit` bytes of another stream, to stop in the middle of a body.
final class ScriptedPrefix: BodyStream {
    private let base: any BodyStream
    private var remaining: Int

    init(_ base: any BodyStream, limit: Int) {
        self.base = base
        remaining = limit
    }

    var length: Int64? { nil }
    var isRewindable: Bool { false }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { return 0 }
        let count = try base.read(
            into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, remaining)]))
        remaining -= count
        return count
    }

    func rewind() throws {}
}
