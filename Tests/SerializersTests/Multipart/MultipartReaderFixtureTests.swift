// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Bodies made by curl, Python's requests and browsers, parsed field by field.
@Suite("Multipart parser: real clients' bodies")
struct MultipartReaderFixtureTests {
    /// The binary file curl sent: every byte, a line that looks like a boundary, every byte backwards.
    private let curlBinary: [UInt8] = Array(0...255) + bytes("\r\n--not-the-boundary\r\n") + Array((0...255).reversed())

    private func part(_ parts: [MultipartReader.Part], _ index: Int) -> MultipartReader.Part? {
        #expect(parts.indices.contains(index), "no part \(index) among \(parts.count)")
        return parts.indices.contains(index) ? parts[index] : nil
    }

    @Test("curl -F: fields, text and binary files, JSON, an empty file, a UTF-8 and an escaped file name")
    func curl() throws {
        let (body, type) = try MultipartSamples.load("curl-form")
        let parts = try parseParts(body, contentType: type)
        #expect(parts.map(\.name) == ["field", "utf8", "file", "blob", "json", "empty", "accent", "renamed"])
        #expect(
            parts.map(\.filename) == [
                nil, nil, "hello.txt", "binary.bin", nil, "empty.dat", "résumé.txt", #"dir/../x "q".txt"#,
            ])
        #expect(
            parts.map(\.contentType) == [
                nil, nil, "text/plain", "application/octet-stream", "application/json", "application/octet-stream",
                "text/plain", "text/plain",
            ])
        #expect(try part(parts, 0)?.bytes() == bytes("plain value"))
        #expect(try part(parts, 1)?.bytes() == bytes("héllo wörld"))
        #expect(try part(parts, 2)?.bytes() == bytes("hello\r\nworld\n"))
        #expect(try part(parts, 3)?.bytes() == curlBinary)
        #expect(part(parts, 3)?.size == 256 * 2 + 22)
        #expect(try part(parts, 4)?.bytes() == bytes(#"{"a":[1,2],"b":"x"}"#))
        #expect(part(parts, 5)?.size == 0)
        #expect(part(parts, 7)?.safeFilename == #"x "q".txt"#)
        #expect(parts.allSatisfy { $0.dispositionType == "form-data" && $0.filenameStar == nil })
        #expect(parts.map(\.index) == Array(0..<8))
        // The first part's headers start right after "--boundary\r\n".
        let boundary = try #require(type[parameter: "boundary"])
        #expect(part(parts, 0)?.offset == boundary.utf8.count + 4)
        let headers = #"Content-Disposition: form-data; name="field""# + "\r\n\r\n"
        #expect(part(parts, 0)?.bodyOffset == boundary.utf8.count + 4 + headers.utf8.count)
        #expect(
            part(parts, 2)?.headers == [
                .init(name: "Content-Disposition", value: #"form-data; name="file"; filename="hello.txt""#),
                .init(name: "Content-Type", value: "text/plain"),
            ])
    }

    @Test("curl's body decodes through the registry: JSON parts as JSON, text as strings, files as bytes")
    func curlThroughRegistry() throws {
        let (body, type) = try MultipartSamples.load("curl-form")
        let elements = multipartElements(try multipartRegistry().decode(body, contentType: type))
        #expect(
            elements.map(\.value) == [
                "plain value", "héllo wörld", "hello\r\nworld\n",
                .bytes(curlBinary),
                ["a": [1, 2], "b": "x"], .bytes([]), "hello\r\nworld\n", "hello\r\nworld\n",
            ])
    }

    @Test("requests: repeated names in order, a PNG, a file part without Content-Type")
    func requests() throws {
        let (body, type) = try MultipartSamples.load("requests-form")
        let parts = try parseParts(body, contentType: type)
        #expect(parts.map(\.name) == ["name", "tags", "tags", "bio", "avatar", "notes"])
        #expect(
            try parts.map { try $0.bytes() }.prefix(4) == [
                bytes("Ann Lee"), bytes("a"), bytes("b/c"), bytes("line one\r\nline two"),
            ])
        let png = try #require(part(parts, 4))
        #expect(png.filename == "me.png")
        #expect(png.contentType == "image/png")
        #expect(try png.bytes().prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(png.size == 69)
        let notes = try #require(part(parts, 5))
        #expect(notes.filename == "notes.txt")
        #expect(notes.contentType == nil)
        #expect(try notes.bytes() == bytes("plain text\n"))
        let elements = multipartElements(try multipartRegistry().decode(body, contentType: type))
        #expect(elements.last?.value == "plain text\n")
        // The fixture's 69-byte PNG is a signature and headers without pixels: the image
        // serializer says so for that part alone; raw, it stays its bytes.
        #expect((elements[4].value.decodingFailure)?.error.message.contains("Not enough image data") == true)
        #expect(
            multipartElements(try multipartRegistry(rawParts: true).decode(body, contentType: type))[4].value
                .bytesValue?.count == 69)
    }

    @Test("a Chrome-style body: %22 and %0A escapes, a raw UTF-8 file name, an empty file input")
    func chrome() throws {
        let (body, type) = try MultipartSamples.load("chrome-form")
        let parts = try parseParts(body, contentType: type)
        #expect(parts.map(\.name) == ["username", "comment", "avatar", "doc", "attachment", "multi\nline \"name\""])
        #expect(try part(parts, 1)?.bytes() == bytes("Line 1\r\nLine 2 ✓"))
        #expect(part(parts, 2)?.filename == #"photo "1".jpg"#)
        #expect(try part(parts, 2)?.bytes().prefix(4) == [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(part(parts, 2)?.size == 22)
        #expect(part(parts, 3)?.filename == "résumé 履歴.pdf")
        #expect(try part(parts, 3)?.bytes() == [UInt8]("%PDF-1.4\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A])
        let empty = try #require(part(parts, 4))
        #expect(empty.filename == "")
        #expect(empty.safeFilename == nil)
        #expect(empty.size == 0)
        #expect(empty.contentType == "application/octet-stream")
    }

    @Test("a Firefox-style body: long dashed boundary, text, HTML and JSON files")
    func firefox() throws {
        let (body, type) = try MultipartSamples.load("firefox-form")
        let elements = multipartElements(try multipartRegistry().decode(body, contentType: type))
        #expect(elements.map(\.part.name) == ["text", "file1", "file2", "json"])
        #expect(
            elements.map(\.value) == [
                "text default", "Content of a.txt.\n", "<!DOCTYPE html><title>Content of a.html.</title>\n",
                ["id": 7, "tags": ["x", "y"]],
            ])
        #expect(elements.map(\.part.filename) == [nil, "a.txt", "a.html", "data.json"])
    }

    @Test(
        "RFC features: preamble, padding, folding, header case, token and legacy escapes, filename*, nesting, epilogue")
    func rfcFeatures() throws {
        let (body, type) = try MultipartSamples.load("rfc-features")
        let parts = try parseParts(body, contentType: type)
        #expect(parts.map(\.name) == ["folded", "token_name", "legacy", "star", "latin", "nothing", "nested"])
        let folded = try #require(part(parts, 0))
        #expect(
            folded.headers == [
                .init(name: "content-disposition", value: #"form-data; name="folded""#),
                .init(name: "CONTENT-TYPE", value: "text/plain; charset=us-ascii"),
                .init(name: "X-Custom", value: "spaced value"),
            ])
        #expect(folded.header("x-custom") == "spaced value")
        #expect(folded.mediaType?.charset == "us-ascii")
        #expect(try folded.bytes() == bytes("folded header part"))
        let windows = try #require(part(parts, 1))
        #expect(windows.filename == #"C:\Users\ann\report.txt"#)
        #expect(windows.safeFilename == "report.txt")
        #expect(part(parts, 2)?.filename == #"say "hi" \o/.txt"#)
        let star = try #require(part(parts, 3))
        #expect(star.filename == "EURO rates.txt")
        #expect(star.filenameStar == "€ rates.txt")
        #expect(star.safeFilename == "€ rates.txt")
        #expect(part(parts, 4)?.filenameStar == "£ rates.txt")
        #expect(part(parts, 4)?.filename == nil)
        #expect(part(parts, 5)?.size == 0)
        #expect(try part(parts, 6)?.bytes().starts(with: bytes("--inner\r\n")) == true)
        #expect(try part(parts, 6)?.bytes().suffix(9) == bytes("--inner--")[...])

        let elements = multipartElements(try multipartRegistry().decode(body, contentType: type))
        #expect(elements[4].value == "£ rates")
        #expect(elements[5].value == "")
        let nested = multipartElements(elements[6].value)
        #expect(nested.map(\.part.filename) == ["file1.txt", "file2.gif"])
        #expect(nested.map(\.part.dispositionType) == ["file", "file"])
        #expect(nested.first?.value == "... contents of file1.txt ...")
        // A GIF part reaches the image serializer, which cannot decode GIF: that part's error.
        #expect((nested.last?.value.decodingFailure)?.error.code == .unsupportedFormat)
        // Offsets of nested parts count from the start of the outer body.
        let innerOffset = try #require(part(parts, 6)?.bodyOffset)
        #expect(nested.first?.part.offset == innerOffset + "--inner\r\n".utf8.count)
    }

    @Test("bare LF line endings: parsed by default, an error at the first LF when only CRLF is accepted")
    func bareLineFeeds() throws {
        let (body, type) = try MultipartSamples.load("lf-form")
        let crlfOnly = MultipartReader.Options(lineEndings: .crlf)
        let error = #expect(throws: SatchelError.self) { try parseParts(body, contentType: type, options: crlfOnly) }
        #expect(error?.code == .syntaxError)
        #expect(error?.offset == "--LFOnlyBoundary".utf8.count)
        #expect(error?.message.contains("part 0") == true)
        #expect(error?.message.contains("bare LF") == true)

        let parts = try parseParts(body, contentType: type)
        #expect(parts.map(\.name) == ["first", "second", "third"])
        #expect(try parts.map { try $0.bytes() } == [bytes("one"), bytes("two ends with CRLF"), bytes("a\n\nb")])
        #expect(parts.last?.contentType == "text/plain")
    }
}
