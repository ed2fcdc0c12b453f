// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@Suite("Multipart builder: escaping, boundaries, media types")
struct MultipartBuilderEscapingTests {
    typealias Support = MultipartBuilderSupport

    /// The header block of the only part of a body with boundary AaB03x.
    private func headers(of part: MultipartPart) throws -> String {
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(part)
        let body = Support.text(try form.bytes())
        let start = body.index(body.startIndex, offsetBy: "--AaB03x\r\n".count)
        guard let end = body.range(of: "\r\n\r\n") else { return "" }
        return String(body[start..<end.lowerBound])
    }

    // MARK: - Names and file names

    @Test(
        "quotes, CR, LF and controls in names are WHATWG escapes as browsers write them, backslashes urllib3's",
        arguments: [
            ("a\"b", "a%22b"),
            ("line\r\nX-Injected: 1", "line%0D%0AX-Injected: 1"),
            ("cr\ronly", "cr%0Donly"),
            ("lf\nonly", "lf%0Aonly"),
            ("semi;colon; name=\"admin\"", "semi;colon; name=%22admin%22"),
            ("../../etc/passwd", "../../etc/passwd"),
            ("naïve ✓", "naïve ✓"),
            ("tab\there\u{0}nul\u{7F}", "tab%09here%00nul%7F"),
            ("back\\slash", #"back\\slash"#),
            ("trailing\\", #"trailing\\"#),
            ("\\\"", #"\\%22"#),
        ])
    func namesAreEscaped(name: String, escaped: String) throws {
        let block = try headers(of: MultipartPart(name: name, body: .bytes([])))
        #expect(block == "Content-Disposition: form-data; name=\"\(escaped)\"")
        // One header line: nothing the name holds can start another.
        #expect(!block.contains("\r") && !block.contains("\n"))
        // The parser reads back the name, but for control characters other than CR and LF,
        // which the WHATWG escapes do not cover.
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(MultipartPart(name: name, filename: name, body: .bytes([])))
        let parts = try MultipartReader.read(try form.bytes(), boundary: "AaB03x")
        let expected = name.contains("\t") ? "tab%09here%00nul%7F" : name
        #expect(parts.first?.name == expected)
        #expect((parts.first?.filenameStar ?? parts.first?.filename) == expected)
    }

    @Test("hostile file names cannot inject a header or a parameter")
    func hostileFileNames() throws {
        let block = try headers(
            of: MultipartPart(
                name: "f", filename: "evil\"; name=\"admin\r\nContent-Type: text/html\r\n\r\n<script>.txt",
                body: .bytes([])))
        #expect(
            block == "Content-Disposition: form-data; name=\"f\"; "
                + #"filename="evil%22; name=%22admin%0D%0AContent-Type: text/html%0D%0A%0D%0A<script>.txt""# + "\r\n"
                + "Content-Type: text/plain")
        #expect(block.components(separatedBy: "\r\n").count == 2)
    }

    @Test("non-ASCII file names get an ASCII fallback and an RFC 8187 filename*")
    func nonASCIIFileNames() throws {
        let block = try headers(of: MultipartPart(name: "cv", filename: "résumé 2024 ✓.pdf", body: .bytes([])))
        #expect(
            block == "Content-Disposition: form-data; name=\"cv\"; filename=\"r_sum_ 2024 _.pdf\"; "
                + "filename*=UTF-8''r%C3%A9sum%C3%A9%202024%20%E2%9C%93.pdf\r\n"
                + "Content-Type: application/pdf")

        // A combining sequence is one character: one replacement.
        #expect(MultipartHeaderEscaping.asciiFallback("e\u{301}t\u{E9}\"") == "_t_%22")
        // filename* escapes everything outside attr-char, quotes and line breaks included.
        #expect(MultipartHeaderEscaping.extendedValue("ü\"\r\n;a'b*c%") == "UTF-8''%C3%BC%22%0D%0A%3Ba%27b%2Ac%25")
        #expect(MultipartHeaderEscaping.extendedValue("!#$&+-.^_`|~Az09") == "UTF-8''!#$&+-.^_`|~Az09")
        // ASCII names get no filename*.
        let ascii = try headers(of: MultipartPart(name: "f", filename: "plain.txt", body: .bytes([])))
        #expect(!ascii.contains("filename*"))
    }

    @Test("custom headers must have token names and values without line breaks")
    func customHeaderValidation() throws {
        var form = MultipartFormData()
        form.append("first", name: "a")
        let badName = #expect(throws: SatchelError.self) {
            try form.append(MultipartPart(name: "b", headers: [.init(name: "X Bad", value: "1")], body: .bytes([])))
        }
        #expect(badName?.code == .invalidArgument)
        #expect(badName?.message.contains("part 1 (\"b\")") == true)
        #expect(badName?.message.contains("not a token") == true)
        for value in ["a\r\nX-Injected: 1", "a\nb", "a\rb", "nul\u{0}"] {
            let badValue = #expect(throws: SatchelError.self) {
                try form.append(
                    MultipartPart(name: "b", headers: [.init(name: "X-Ok", value: value)], body: .bytes([])))
            }
            #expect(badValue?.code == .invalidArgument)
            #expect(badValue?.message.contains("part 1") == true)
        }
        let twoTypes = #expect(throws: SatchelError.self) {
            try form.append(
                MultipartPart(
                    name: "b",
                    headers: [.init(name: "Content-Type", value: "a/b"), .init(name: "content-type", value: "c/d")],
                    body: .bytes([])))
        }
        #expect(twoTypes?.message.contains("more than one content-type") == true)
        let badType = #expect(throws: SatchelError.self) {
            try form.append([], name: "b", mediaType: MediaType(type: "text\r\nX", subtype: "plain"))
        }
        #expect(badType?.code == .invalidArgument)
        let badDisposition = #expect(throws: SatchelError.self) {
            try form.append(MultipartPart(name: "b", dispositionType: "form data", body: .bytes([])))
        }
        #expect(badDisposition?.code == .invalidArgument)
        let unnamed = #expect(throws: SatchelError.self) { try form.append(MultipartPart(body: .bytes([]))) }
        #expect(unnamed?.message.contains("needs a name") == true)
        #expect(form.parts.count == 1)
        // A tab is allowed in a value.
        try form.append(MultipartPart(name: "b", headers: [.init(name: "X-Ok", value: "a\tb")], body: .bytes([])))
    }

    // MARK: - Boundaries

    @Test("random boundaries carry 128 bits, are valid and are never quoted")
    func randomBoundaries() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let boundary = MultipartBoundary.random()
            #expect(boundary.value.hasPrefix("satchel-"))
            let digits = boundary.value.dropFirst("satchel-".count)
            #expect(digits.count == 32 && digits.allSatisfy(\.isHexDigit))
            #expect(try MultipartBoundary(boundary.value) == boundary)
            seen.insert(boundary.value)
            let form = MultipartFormData(boundary: boundary)
            #expect(form.contentType.description == "multipart/form-data; boundary=\(boundary.value)")
        }
        #expect(seen.count == 200)
        // Each hex digit position takes many values: the bits are not constant.
        let sample = (0..<64).map { _ in MultipartBoundary.random().value }
        for position in "satchel-".count..<40 {
            let characters = Set(sample.map { Array($0)[position] })
            #expect(characters.count > 4, "position \(position)")
        }
        #expect(MultipartFormData().boundary != MultipartFormData().boundary)
    }

    @Test(
        "explicit boundaries are validated against RFC 2046",
        arguments: [
            ("", false), (String(repeating: "a", count: 71), false), ("a\"b", false), ("ends in space ", false),
            ("é", false), ("a\r\nb", false), ("semi;colon", false), ("AaB03x", true),
            (String(repeating: "z", count: 70), true), ("a b", true), ("'()+_,-./:=?", true), ("1", true),
        ])
    func explicitBoundaries(text: String, valid: Bool) throws {
        if valid {
            #expect(try MultipartBoundary(text).value == text)
        } else {
            let error = #expect(throws: SatchelError.self) { try MultipartBoundary(text) }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test("a boundary is quoted in the Content-Type only when it has to be")
    func boundaryQuoting() throws {
        #expect(
            MultipartFormData(boundary: try Support.boundary("simple-1.2_3")).contentType.description
                == "multipart/form-data; boundary=simple-1.2_3")
        #expect(
            MultipartFormData(boundary: try Support.boundary("has space")).contentType.description
                == "multipart/form-data; boundary=\"has space\"")
        #expect(
            MultipartFormData(boundary: try Support.boundary("a:b=c?")).contentType.description
                == "multipart/form-data; boundary=\"a:b=c?\"")
        var related = MultipartFormData(subtype: .related, boundary: try Support.boundary())
        try related.addContentTypeParameter(name: "type", value: "application/json")
        #expect(related.contentType.description == "multipart/related; boundary=AaB03x; type=\"application/json\"")
        #expect(throws: SatchelError.self) { try related.addContentTypeParameter(name: "Boundary", value: "x") }
        #expect(throws: SatchelError.self) { try related.addContentTypeParameter(name: "a b", value: "x") }
    }

    @Test("bytes that contain the delimiter, or a nested boundary that starts with the outer one, are refused")
    func boundaryCollisions() throws {
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(Array("safe --AaB03x in the middle of a line".utf8), name: "ok")
        form.append("line\r\n--AaB03x--\r\n", name: "evil")
        let error = #expect(throws: SatchelError.self) { try form.makeBodyStream() }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("part 1 (\"evil\")") == true)

        var starting = MultipartFormData(boundary: try Support.boundary())
        starting.append("--AaB03x", name: "first")
        #expect(throws: SatchelError.self) { try starting.makeBodyStream() }

        var nested = MultipartFormData(subtype: .mixed, boundary: try Support.boundary("AaB03x-inner"))
        nested.append("x", name: "n")
        var outer = MultipartFormData(boundary: try Support.boundary())
        #expect(throws: SatchelError.self) { try outer.append(nested, name: "files") }

        // A nested part's Content-Type is its body's.
        var fixedType = MultipartFormData(subtype: .mixed, boundary: try Support.boundary("other"))
        fixedType.append("x", name: "n")
        let typed = #expect(throws: SatchelError.self) {
            try outer.append(
                MultipartPart(name: "files", mediaType: MediaType("multipart/mixed"), body: .multipart(fixedType)))
        }
        #expect(typed?.message.contains("nested multipart part's Content-Type") == true)

        // A nested body's bytes must not contain the outer delimiter either.
        var inner = MultipartFormData(subtype: .mixed, boundary: try Support.boundary("inner"))
        inner.append("\n--AaB03x", name: "n")
        var wrapper = MultipartFormData(boundary: try Support.boundary("middle"))
        try wrapper.append(inner, name: "inner")
        var top = MultipartFormData(boundary: try Support.boundary())
        try top.append(wrapper, name: "wrapper")
        let nestedError = #expect(throws: SatchelError.self) { try top.makeBodyStream() }
        #expect(nestedError?.message.hasPrefix("part 0 (\"wrapper\"): part 0 (\"inner\"): part 0 (\"n\")") == true)
    }

    // MARK: - Media types

    @Test("file parts get their media type from the shipped table, case-insensitively")
    func mediaTypeFromTable() throws {
        let table = MediaTypeTable(systemTablePath: nil)
        #expect(table.mediaType(forPath: "/a/b/photo.PNG") == MediaType("image/png"))
        #expect(table.mediaType(forPath: "data.json").description == "application/json")
        #expect(table.mediaType(forPath: "archive.tar.gz").description == "application/gzip")
        #expect(table.mediaType(forExtension: "docx").subtype.hasSuffix("wordprocessingml.document"))
        #expect(table.mediaType(forExtension: "woff2").description == "font/woff2")
        for type in ["text/csv", "image/jpeg", "audio/mpeg", "video/mp4", "application/zip", "application/xml"] {
            #expect(MediaTypeTable.builtIn.values.contains(type))
        }
        #expect(MediaTypeTable.builtIn.count > 100)
    }

    @Test("unknown extensions fall back to the system table, then to application/octet-stream")
    func mediaTypeFallbacks() throws {
        let mimeTypes = try Support.temporaryFile(
            Array(
                "# comment\napplication/x-satchel-test\tsatcheltest sct2\ntext/x-other satcheltest\nimage/png png\n"
                    .utf8),
            name: "mime.types")
        defer { Support.remove(mimeTypes) }
        let table = MediaTypeTable(systemTablePath: mimeTypes)
        #expect(table.mediaType(forExtension: "SatchelTest").description == "application/x-satchel-test")
        #expect(table.mediaType(forPath: "x.sct2").description == "application/x-satchel-test")
        #expect(table.mediaType(forPath: "x.unknownext123") == .octetStream)
        #expect(table.mediaType(forPath: "README") == .octetStream)
        #expect(table.mediaType(forPath: "/home/ann/.profile") == .octetStream)
        #expect(table.mediaType(forPath: "trailing.") == .octetStream)
        #expect(MediaTypeTable(systemTablePath: "/nonexistent/mime.types").systemEntries.isEmpty)
        #expect(MediaTypeTable(systemTablePath: nil).mediaType(forExtension: "satcheltest") == .octetStream)
    }

    @Test(
        "the standard table reads /etc/mime.types for extensions Satchel does not ship",
        .enabled(if: FileManager.default.fileExists(atPath: "/etc/mime.types")))
    func systemMimeTypes() throws {
        let standard = MediaTypeTable.standard
        // Every extension the table does not ship comes from the system file; media types
        // compare case-insensitively (the system file has entries such as audio/EVRCB).
        let extras = standard.systemEntries.filter { MediaTypeTable.builtIn[$0.key] == nil }
        #expect(!extras.isEmpty)
        for (fileExtension, type) in extras {
            #expect(
                standard.mediaType(forExtension: fileExtension).description == type.lowercased(), "\(fileExtension)")
        }
    }

    @Test("the media type is inferred for files and named bytes, and can be overridden")
    func mediaTypeInferenceAndOverride() throws {
        let path = try Support.temporaryFile(Array("a,b".utf8), name: "table.csv")
        defer { Support.remove(path) }
        let noExtension = try Support.temporaryFile([1], name: "report.pdf")
        defer { Support.remove(noExtension) }
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(fileAt: path, name: "inferred")
        try form.append(fileAt: path, name: "overridden", mediaType: MediaType("text/plain; charset=utf-8"))
        try form.append(fileAt: path, name: "renamed", filename: "t.json")
        try form.append(fileAt: noExtension, name: "bare", filename: "report")
        try form.append([1, 2], name: "blob", filename: "x.unknownext123")
        try form.append([1, 2], name: "field")
        let body = Support.text(try form.bytes())
        #expect(body.contains("name=\"inferred\"; filename=\"table.csv\"\r\nContent-Type: text/csv\r\n"))
        #expect(
            body.contains("name=\"overridden\"; filename=\"table.csv\"\r\nContent-Type: text/plain; charset=utf-8\r\n"))
        #expect(body.contains("filename=\"t.json\"\r\nContent-Type: application/json\r\n"))
        #expect(body.contains("filename=\"report\"\r\nContent-Type: application/pdf\r\n"))
        #expect(body.contains("filename=\"x.unknownext123\"\r\nContent-Type: application/octet-stream\r\n"))
        #expect(body.contains("name=\"field\"\r\n\r\n"))

        var custom = MultipartFormData(boundary: try Support.boundary())
        custom.mediaTypes = MediaTypeTable(systemTablePath: nil)
        try custom.append([], name: "f", filename: "a.satcheltest")
        #expect(Support.text(try custom.bytes()).contains("Content-Type: application/octet-stream"))
    }
}
