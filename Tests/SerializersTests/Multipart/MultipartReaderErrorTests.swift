// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// Malformed and hostile bodies: each error has its code, names the part and gives the byte offset,
/// whatever the chunking.
@Suite("Multipart parser: errors")
struct MultipartReaderErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var body: [UInt8]
        var code: SatchelError.Code
        var offset: Int
        var mentions: [String]
        var limit: String? = nil
        var options = MultipartReader.Options()
        var limits = Limits.default
        var isFormData = true

        var testDescription: String { label }
    }

    static let disposition = "Content-Disposition: form-data; name=\"a\"\r\n"
    static let part = "--B\r\n" + disposition + "\r\nvalue"

    /// The offset of the first occurrence of `needle` in `text` (after `skipping` earlier ones).
    static func at(_ needle: String, in text: String, skipping: Int = 0) -> Int {
        let haystack = Array(text.utf8), pattern = Array(needle.utf8)
        var found = -1
        var remaining = skipping
        for start in 0...(haystack.count - pattern.count)
        where Array(haystack[start..<start + pattern.count]) == pattern {
            if remaining == 0 {
                found = start
                break
            }
            remaining -= 1
        }
        return found
    }

    static func text(_ text: String, _ code: SatchelError.Code, offset: Int, _ mentions: [String]) -> Case {
        Case(label: "", body: Array(text.utf8), code: code, offset: offset, mentions: mentions)
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        func add(
            _ label: String, _ text: String, _ code: SatchelError.Code, offset: Int, _ mentions: [String],
            configure: (inout Case) -> Void = { _ in }
        ) {
            var item = Case(label: label, body: Array(text.utf8), code: code, offset: offset, mentions: mentions)
            configure(&item)
            cases.append(item)
        }
        let closed = part + "\r\n--B"
        add(
            "missing final boundary: the last delimiter is not closed", closed, .truncatedInput,
            offset: closed.utf8.count, ["missing final boundary", "part 0", "\"--B--\""])
        let opened = part + "\r\n--B\r\n"
        add(
            "missing final boundary: a delimiter opens a part that never comes", opened, .truncatedInput,
            offset: opened.utf8.count, ["missing final boundary", "part 1"])
        let inHeaders = part + "\r\n--B\r\nContent-Disposition: form-da"
        add("truncated in the headers", inHeaders, .truncatedInput, offset: inHeaders.utf8.count, ["headers of part 1"])
        add("truncated in the body", part, .truncatedInput, offset: part.utf8.count, ["body of part 0", "\"--B\""])
        let wrong = "--X\r\n" + disposition + "\r\nvalue\r\n--X--\r\n"
        add(
            "wrong boundary", wrong, .syntaxError, offset: wrong.utf8.count,
            ["\"--B\" never appears", "wrong boundary", "\"--X\""])
        let noBlank = "--B\r\n" + disposition + "value\r\n--B--\r\n"
        add(
            "no blank line after the headers", noBlank, .syntaxError, offset: at("value", in: noBlank),
            ["no blank line after the headers of part 0", "\"value\""])
        let noDisposition = part + "\r\n--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--"
        add(
            "missing Content-Disposition in form-data", noDisposition, .syntaxError,
            offset: at("Content-Type", in: noDisposition), ["part 1 has no Content-Disposition"])
        let noName = "--B\r\nContent-Disposition: form-data; filename=\"f.txt\"\r\n\r\nx\r\n--B--"
        add(
            "Content-Disposition without name in form-data", noName, .syntaxError,
            offset: at("form-data;", in: noName), ["part 0", "no name parameter"])
        let three = part + "\r\n--B\r\n" + disposition + "\r\n2\r\n--B\r\n" + disposition + "\r\n3\r\n--B--"
        add(
            "too many parts", three, .limitExceeded, offset: at("Content-Disposition", in: three, skipping: 2),
            ["part 2", "Limits.maxParts (2)"]
        ) {
            $0.limits.maxParts = 2; $0.limit = "maxParts"
        }
        let bigHeader =
            "--B\r\n" + disposition + "X-Padding: " + String(repeating: "p", count: 100) + "\r\n\r\nv\r\n--B--"
        add(
            "oversized headers", bigHeader, .limitExceeded, offset: 5 + 64,
            ["part 0", "Limits.maxPartHeaderBytes (64)"]
        ) {
            $0.limits.maxPartHeaderBytes = 64
            $0.limit = "maxPartHeaderBytes"
        }
        let endless = "--B\r\n" + String(repeating: "h", count: 500)
        add(
            "a header line that never ends stops at the limit", endless, .limitExceeded, offset: 5 + 100,
            ["part 0"]
        ) {
            $0.limits.maxPartHeaderBytes = 100; $0.limit = "maxPartHeaderBytes"
        }
        let body = part + "\r\n--B--\r\n"
        add("total bytes", body, .limitExceeded, offset: 40, ["Limits.maxBodyBytes (40)", "part 0"]) {
            $0.limits.maxBodyBytes = 40
            $0.limit = "maxBodyBytes"
        }
        let lfBoundary = "--B\n" + disposition + "\r\nv\r\n--B--"
        add("bare LF after a boundary, CRLF only", lfBoundary, .syntaxError, offset: 3, ["part 0", "bare LF"]) {
            $0.options.lineEndings = .crlf
        }
        let lfHeader = "--B\r\nContent-Disposition: form-data; name=\"a\"\n\r\nv\r\n--B--"
        add(
            "bare LF after a header, CRLF only", lfHeader, .syntaxError,
            offset: at("\n", in: lfHeader, skipping: 1),
            ["a header line of part 0", "bare LF"]
        ) { $0.options.lineEndings = .crlf }
        let garbage = part + "\r\n--Bx\r\n"
        add(
            "a delimiter followed by more characters", garbage, .syntaxError, offset: at("x\r\n", in: garbage),
            ["before part 1", "'x'"])
        let dashGarbage = part + "\r\n--B-x"
        add(
            "a delimiter followed by a single dash", dashGarbage, .syntaxError, offset: dashGarbage.utf8.count - 1,
            ["\"-\""])
        let lonelyCR = part + "\r\n--B\rx"
        add("a body that is only its first boundary", "--B", .truncatedInput, offset: 3, ["after its first boundary"])
        add(
            "a CR without LF after a boundary", lonelyCR, .syntaxError, offset: lonelyCR.utf8.count - 2,
            ["CR not followed by LF"])
        let crInHeader = "--B\r\nContent-Disposition: form-data;\r name=\"a\"\r\n\r\nv\r\n--B--"
        add("a CR inside a header line", crInHeader, .syntaxError, offset: at(";\r", in: crInHeader) + 1, ["CR"])
        let control = "--B\r\nContent-Disposition: form-data; name=\"a\u{1}\"\r\n\r\nv\r\n--B--"
        add(
            "a control character in a header value", control, .syntaxError, offset: at("\u{1}", in: control),
            ["control character", "part 0"])
        let badName = "--B\r\nBad Name: x\r\n" + disposition + "\r\nv\r\n--B--"
        add("a header name with a space", badName, .syntaxError, offset: 5, ["invalid header name \"Bad Name\""])
        let startsFolded = "--B\r\n folded\r\n" + disposition + "\r\nv\r\n--B--"
        add("headers that start with a continuation line", startsFolded, .syntaxError, offset: 5, ["whitespace"])
        let twice = "--B\r\n" + disposition + disposition + "\r\nv\r\n--B--"
        add(
            "two Content-Disposition headers in strict mode", twice, .syntaxError,
            offset: at("Content-Disposition", in: twice, skipping: 1), ["2 Content-Disposition headers"])
        let attachment = "--B\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--B--"
        add(
            "a disposition other than form-data in strict mode", attachment, .syntaxError,
            offset: at("attachment", in: attachment), ["\"attachment\", not \"form-data\""])
        let badStar = "--B\r\nContent-Disposition: form-data; name=\"a\"; filename*=UTF-8''%E2%82\r\n\r\nv\r\n--B--"
        add(
            "filename* that is not UTF-8", badStar, .syntaxError, offset: at("%E2", in: badStar),
            ["filename*", "UTF-8"])
        let badCharset = "--B\r\nContent-Disposition: form-data; name=\"a\"; filename*=koi8-r''x\r\n\r\nv\r\n--B--"
        add("filename* in another charset", badCharset, .syntaxError, offset: at("koi8", in: badCharset), ["koi8-r"])
        let unterminated = "--B\r\nContent-Disposition: form-data; name=\"a\r\n\r\nv\r\n--B--"
        add(
            "an unterminated quoted name", unterminated, .syntaxError, offset: at("\"a", in: unterminated) + 2,
            ["malformed", "unterminated quoted string"])
        let startsWithBoundary = "--B\r\n" + disposition + "\r\n--B\r\n" + disposition + "\r\nv\r\n--B--"
        add(
            "a body that starts with the boundary is ambiguous in strict mode", startsWithBoundary, .syntaxError,
            offset: at("--B", in: startsWithBoundary, skipping: 1),
            ["body of part 0 starts with the boundary", "lenient"])
        return cases
    }()

    @Test("each malformed body is a precise error, the same in any chunking", arguments: cases)
    func malformed(_ item: Case) {
        var first: SatchelError?
        for size in [0, 1, 7, 4096] {
            let error = parseFailure(
                item.body, chunkSize: size, isFormData: item.isFormData, options: item.options, limits: item.limits)
            #expect(error?.code == item.code, "chunks of \(size): \(error?.description ?? "no error")")
            #expect(error?.offset == item.offset, "chunks of \(size): \(error?.description ?? "no error")")
            for mention in item.mentions {
                #expect(error?.message.contains(mention) == true, "\(error?.message ?? "no error") lacks \(mention)")
            }
            if let limit = item.limit { #expect(error?.limit == limit) }
            if size == 0 { first = error } else { #expect(error?.message == first?.message) }
        }
    }

    @Test("lenient mode accepts what strict mode rejects for real clients' sake")
    func lenientAccepts() throws {
        let lenient = MultipartReader.Options(lenient: true)
        let type = try MediaType(parsing: "multipart/form-data; boundary=B")
        let cases = [
            "--B\n" + Self.disposition + "\r\nv\r\n--B--",
            "--B\r\nContent-Disposition: form-data; name=\"a\"\n\nv\n--B--",
            "--B\r\n" + Self.disposition + Self.disposition + "\r\nv\r\n--B--",
            "--B\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nv\r\n--B--",
            "--B\r\nContent-Disposition: form-data; name=\"a\"; filename*=koi8-r''x\r\n\r\nv\r\n--B--",
        ]
        for text in cases {
            let parts = try parseParts(bytes(text), contentType: type, options: lenient)
            #expect(parts.map(\.name) == ["a"], "\(text.debugDescription)")
            #expect(try parts.first?.bytes() == bytes("v"))
        }
        let star = try parseParts(bytes(cases[4]), contentType: type, options: lenient)
        #expect(star.first?.filenameStar == nil)
        // A part whose delimiter lacks its line break is read as empty (as Go and werkzeug do).
        let empty = "--B\r\n" + Self.disposition + "\r\n--B\r\n" + Self.disposition + "\r\nv\r\n--B--"
        for size in [1, 0] {
            let parts = try parseParts(bytes(empty), contentType: type, chunkSize: size, options: lenient)
            #expect(try parts.map { try $0.bytes() } == [[], bytes("v")])
        }
        // Not at the start of the body, or not the whole boundary: content in both modes.
        let content = "--B\r\n" + Self.disposition + "\r\n-x--B --B\r\n-B--B\r\n--B--"
        #expect(try parseParts(bytes(content), contentType: type).first?.bytes() == bytes("-x--B --B\r\n-B--B"))
    }

    @Test("nesting deeper than Limits.maxDepth fails the whole body, naming each part on the way")
    func nestingTooDeep() throws {
        func nest(_ level: Int) -> String {
            let boundary = "L\(level)"
            let inner =
                level == 0
                ? "Content-Disposition: form-data; name=\"leaf\"\r\n\r\nleaf"
                : "Content-Disposition: form-data; name=\"n\(level)\"\r\nContent-Type: multipart/form-data; boundary=L\(level - 1)\r\n\r\n"
                    + nest(level - 1)
            return "--\(boundary)\r\n\(inner)\r\n--\(boundary)--"
        }
        let text = nest(3)  // L3 > L2 > L1 > L0: four levels
        let type = try MediaType(parsing: "multipart/form-data; boundary=L3")
        var limits = Limits.default
        limits.maxDepth = 4
        let value = try multipartRegistry(limits: limits).decode(bytes(text), contentType: type)
        let level2 = multipartElements(multipartElements(value).first?.value)
        let level1 = multipartElements(level2.first?.value)
        #expect(multipartElements(level1.first?.value).first?.value == "leaf")

        limits.maxDepth = 3
        let error = #expect(throws: SatchelError.self) {
            try multipartRegistry(limits: limits).decode(bytes(text), contentType: type)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
        #expect(
            error?.message.contains("in part 0: in part 0: a multipart body nested 4 deep") == true,
            "\(error?.message ?? "")")
        // The offset is where the body nested too deep starts: the first byte of "--L0".
        #expect(error?.offset == Self.at("--L0\r\n", in: text))

        #expect(throws: SatchelError.self) { try MultipartReader(boundary: "B", limits: Limits(maxDepth: 1), depth: 2) }
    }

    @Test("a limit hit by a decoded part fails the body; another decoding failure becomes the part's $error")
    func partFailures() throws {
        let body =
            "--B\r\nContent-Disposition: form-data; name=\"bad\"\r\nContent-Type: application/json\r\n\r\n{\"a\":}\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"deep\"\r\nContent-Type: application/json\r\n\r\n[[[[1]]]]\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"type\"\r\nContent-Type: text/\r\n\r\nx\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"ok\"\r\n\r\nfine\r\n--B--"
        let type = try MediaType(parsing: "multipart/form-data; boundary=B")
        let elements = multipartElements(try multipartRegistry().decode(bytes(body), contentType: type))
        #expect(elements.map(\.part.name) == ["bad", "deep", "type", "ok"])
        guard case .payload(let failure as DecodingFailure) = elements.first?.value else {
            Issue.record("not a failure: \(String(describing: elements.first?.value))")
            return
        }
        #expect(failure.error.code == .syntaxError)
        #expect(failure.canonicalValue["code"] == "syntaxError")
        #expect(failure.canonicalValue["message"]?.stringValue?.contains("byte 5") == true)
        #expect(elements[1].value == [[[[1]]]])
        #expect(elements[2].value.canonicalForm["$error"]?["code"] == "invalidMediaType")
        #expect(elements[3].value == "fine")

        var limits = Limits.default
        limits.maxDepth = 3
        let error = #expect(throws: SatchelError.self) {
            try multipartRegistry(limits: limits).decode(bytes(body), contentType: type)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.hasPrefix("in part 1: ") == true)
        // The JSON reader's offset within the part, moved to the whole body.
        let deepBody = Self.at("[[[[1]]]]", in: body)
        #expect(
            error.flatMap(\.offset).map { $0 >= deepBody && $0 < deepBody + 9 } == true, "\(error?.description ?? "")")
    }

    @Test(
        "Content-Types without a valid boundary are rejected before parsing",
        arguments: [
            ("multipart/form-data", "no boundary parameter"),
            ("multipart/form-data; boundary=\"\"", "empty"),
            ("multipart/form-data; boundary=" + String(repeating: "a", count: 71), "71 characters"),
            ("multipart/form-data; boundary=\"a@b\"", "index 1"),
            ("multipart/form-data; boundary=\"ends with space \"", "ends with a space"),
            ("application/json; boundary=x", "not a multipart type"),
        ])
    func invalidBoundary(contentType: String, mention: String) throws {
        let type = try MediaType(parsing: contentType)
        let error = #expect(throws: SatchelError.self) { try MultipartReader(contentType: type) }
        #expect(error?.code == .invalidMediaType)
        #expect(error?.message.contains(mention) == true, "\(error?.message ?? "")")
        let serializer = MultipartResponseSerializer()
        let viaSerializer = #expect(throws: SatchelError.self) {
            try serializer.decode(bytes("--x--"), contentType: type, limits: .default)
        }
        #expect(viaSerializer?.code == .invalidMediaType)
        #expect(throws: SatchelError.self) { try serializer.decode(bytes("--x--"), contentType: nil, limits: .default) }
    }

    @Test("lenient mode accepts a long boundary of any printable characters")
    func lenientBoundary() throws {
        let boundary = String(repeating: "@", count: 200)
        #expect(throws: SatchelError.self) { try MultipartReader(boundary: boundary) }
        let parts = try MultipartReader.read(
            bytes("--\(boundary)\r\n\(Self.disposition)\r\nv\r\n--\(boundary)--"), boundary: boundary,
            options: .init(lenient: true))
        #expect(parts.count == 1)
    }

    @Test("an empty body: an error for the parser, no value for the serializer")
    func emptyBody() throws {
        let error = parseFailure([])
        #expect(error?.code == .truncatedInput)
        #expect(error?.offset == 0)
        let type = try MediaType(parsing: "multipart/form-data; boundary=B")
        #expect(try MultipartResponseSerializer().decode([], contentType: type, limits: .default) == nil)
        let decoder = try #require(
            MultipartResponseSerializer().makeIncrementalReader(contentType: nil, limits: .default))
        #expect(try decoder.finish() == nil)
    }

    @Test("after an error the parser keeps failing with it")
    func errorsAreSticky() throws {
        let parser = try MultipartReader(boundary: "B")
        let error = #expect(throws: SatchelError.self) { try parser.feed(bytes("--B\rx")) }
        let again = #expect(throws: SatchelError.self) { try parser.feed(bytes("--B--")) }
        #expect(again?.message == error?.message)
        #expect(throws: SatchelError.self) { try parser.finish() }
        let finished = try MultipartReader(boundary: "B")
        _ = try finished.feed(bytes("--B--"))
        try finished.finish()
        #expect(throws: SatchelError.self) { try finished.feed(bytes("x")) }
    }
}
