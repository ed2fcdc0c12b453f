// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// The response serializer, the `$multipart` value and the details of headers and file names.
@Suite("Multipart parser: serializer, values and headers")
struct MultipartReaderSerializerTests {
    let formData = MediaType(type: "multipart", subtype: "form-data").setting(parameter: "boundary", to: "B")

    func body(_ parts: [(headers: String, body: [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for part in parts { bytes += Array("--B\r\n\(part.headers)\r\n\r\n".utf8) + part.body + Array("\r\n".utf8) }
        return bytes + Array("--B--\r\n".utf8)
    }

    func field(_ name: String, type: String? = nil) -> String {
        "Content-Disposition: form-data; name=\"\(name)\"" + (type.map { "\r\nContent-Type: \($0)" } ?? "")
    }

    @Test(
        "the canonical JSON is Sources/Satchel/Satchel.docc/RegistryAndSerializers.md's $multipart shape, keys in order, nulls for what is missing"
    )
    func canonicalShape() throws {
        let bytes = body([
            (field("a"), Array("1".utf8)),
            (
                "Content-Disposition: form-data; name=\"f\"; filename=\"x.txt\"; filename*=UTF-8''%C3%A9.txt\r\nContent-Type: text/plain\r\nX-Trace: t",
                Array("é".utf8)
            ),
        ])
        let value = try MultipartResponseSerializer().decode(bytes, contentType: formData, limits: .default)
        #expect(
            value?.canonicalJSON() == #"{"$multipart":["#
                + #"{"headers":[["Content-Disposition","form-data; name=\"a\""]],"name":"a","filename":null,"filenameStar":null,"contentType":null,"size":1,"value":"1"},"#
                + #"{"headers":[["Content-Disposition","form-data; name=\"f\"; filename=\"x.txt\"; filename*=UTF-8''%C3%A9.txt"],["Content-Type","text/plain"],["X-Trace","t"]],"name":"f","filename":"x.txt","filenameStar":"é.txt","contentType":"text/plain","size":2,"value":"é"}"#
                + "]}")
        #expect(value?.kindName == "$multipart")
    }

    @Test("values: through the registry by Content-Type, or text and bytes when raw or unmatched")
    func valueRules() throws {
        let bytes = body([
            (field("json", type: "application/json"), Array(#"{"k":[true]}"#.utf8)),
            (field("form", type: "application/x-www-form-urlencoded"), Array("a=1&b=2".utf8)),
            (field("plain"), Array("text".utf8)),
            (field("latin", type: "text/plain; charset=ISO-8859-1"), [0x63, 0x61, 0x66, 0xE9]),
            (field("klingon", type: "text/plain; charset=x-klingon"), [0xC1]),
            (field("notutf8"), [0xC3, 0x28]),
            (field("binary", type: "application/octet-stream"), Array("text".utf8)),
            (field("csv", type: "text/csv"), Array("a,b".utf8)),
            (field("emptyjson", type: "application/json"), []),
            (field("badtype", type: "text/"), Array("x".utf8)),
            (field("bom", type: "text/plain"), [0xEF, 0xBB, 0xBF] + Array("hi".utf8)),
        ])
        let decoded = multipartElements(try multipartRegistry().decode(bytes, contentType: formData)).map(\.value)
        #expect(
            Array(decoded.prefix(9)) == [
                ["k": [true]], ["a": "1", "b": "2"], "text", "café", decoded[4], .bytes([0xC3, 0x28]),
                .bytes(Array("text".utf8)), "a,b", .null,
            ])
        // The text serializer takes text/* parts: a charset it does not know is that part's error.
        #expect(decoded[4].canonicalForm["$error"]?["code"] == "unsupportedFormat")
        #expect(decoded[9].canonicalForm["$error"]?["code"] == "invalidMediaType")
        // Decoding text drops its byte order mark; raw parts keep every byte.
        #expect(decoded[10] == "hi")

        let raw = multipartElements(try multipartRegistry(rawParts: true).decode(bytes, contentType: formData)).map(
            \.value)
        #expect(
            Array(raw.prefix(9)) == [
                .bytes(Array(#"{"k":[true]}"#.utf8)), .bytes(Array("a=1&b=2".utf8)), "text",
                .bytes([0x63, 0x61, 0x66, 0xE9]), .bytes([0xC1]), .bytes([0xC3, 0x28]), .bytes(Array("text".utf8)),
                "a,b", .bytes([]),
            ])
        #expect(raw[10] == "\u{FEFF}hi")
        // Without a registry, text parts are decoded in their charset and the rest is bytes.
        let alone = multipartElements(
            try MultipartResponseSerializer().decode(bytes, contentType: formData, limits: .default)
        ).map(\.value)
        #expect(alone[3] == "café" && alone[10] == "hi")
        #expect(alone.prefix(9).enumerated().allSatisfy { $0.offset == 3 || $0.element == raw[$0.offset] })
    }

    @Test("a text part longer than Limits.maxStringBytes fails the body")
    func stringLimit() throws {
        let bytes = body([(field("a"), Array("0123456789".utf8))])
        var limits = Limits.default
        limits.maxStringBytes = 9
        let error = #expect(throws: SatchelError.self) {
            try MultipartResponseSerializer().decode(bytes, contentType: formData, limits: limits)
        }
        #expect(error?.limit == "maxStringBytes")
        #expect(error?.message.contains("part 0") == true)
    }

    @Test("the serializer holds its registry weakly, so registering it in that registry makes no cycle")
    func weakRegistry() throws {
        weak var released: Registry?
        var serializer: MultipartResponseSerializer?
        do {
            let registry = Registry.standard()
            registry.register(MultipartResponseSerializer(registry: registry))
            serializer = MultipartResponseSerializer(registry: registry)
            released = registry
            #expect(registry.responseSerializer(for: formData)?.name == "multipart")
            #expect(registry.acceptHeader.contains("multipart/*"))
            #expect(serializer?.registry === registry)
        }
        #expect(released == nil)
        #expect(serializer?.registry == nil)
        let bytes = body([(field("json", type: "application/json"), Array("[1]".utf8))])
        let value = try serializer?.decode(bytes, contentType: formData, limits: .default)
        #expect(multipartElements(value).first?.value == .bytes(Array("[1]".utf8)))
    }

    @Test("the incremental decoder reports each part as soon as it completes")
    func incrementalCallbacks() throws {
        let bytes = body([(field("a"), Array("1".utf8)), (field("b", type: "application/json"), Array("2".utf8))])
        let registry = multipartRegistry()
        let serializer = MultipartResponseSerializer(registry: registry)
        let decoder = MultipartIncrementalReader(serializer: serializer, contentType: formData, limits: .default)
        var seen: [String] = []
        decoder.onPart = { seen.append("\($0.part.name ?? "?")=\($0.value)") }
        var fedUntilFirst = 0
        for byte in bytes {
            try decoder.feed([byte])
            if seen.isEmpty { fedUntilFirst += 1 }
        }
        #expect(seen == ["a=\"1\"", "b=2"])
        // The first part is complete once its delimiter "\r\n--B" has arrived, before the line ends.
        let delimiterEnd = MultipartReaderErrorTests.at("\r\n--B", in: String(decoding: bytes, as: UTF8.self)) + 5
        #expect(fedUntilFirst + 1 == delimiterEnd)
        let parts = multipartElements(try decoder.finish())
        #expect(parts.count == 2)
        withExtendedLifetime(registry) {}
    }

    @Test("MultipartParts is a collection with lookup by field name")
    func partsCollection() throws {
        let bytes = body([
            (field("tag"), Array("a".utf8)), (field("other"), Array("x".utf8)), (field("tag"), Array("b".utf8)),
        ])
        let value = try MultipartResponseSerializer().decode(bytes, contentType: formData, limits: .default)
        guard case .payload(let payload as MultipartParts)? = value else {
            Issue.record("not multipart: \(String(describing: value))")
            return
        }
        #expect(payload.count == 3)
        #expect(payload["tag"]?.value == "a")
        #expect(payload.all(named: "tag").map(\.value) == ["a", "b"])
        #expect(payload["missing"] == nil)
        #expect(payload.map(\.part.index) == [0, 1, 2])
        #expect(payload[1].part.name == "other")
        #expect(MultipartParts(payload.elements) == payload)
        #expect(MultipartParts(Array(payload.elements.prefix(2))) != payload)
    }

    @Test("$error is a payload with the code name and the located message")
    func decodingFailure() {
        var error = SatchelError(.syntaxError, "unexpected '}'", offset: 5)
        error.line = 1
        error.column = 6
        let failure = DecodingFailure(error)
        #expect(
            Value.payload(failure).canonicalJSON()
                == #"{"$error":{"code":"syntaxError","message":"unexpected '}' (at byte 5, line 1, column 6)"}}"#)
        #expect(DecodingFailure(error) == failure)
        #expect(DecodingFailure(SatchelError(.syntaxError, "other")) != failure)
    }

    // MARK: - Headers and file names

    func parse(_ disposition: String, lenient: Bool = false) throws -> MultipartReader.Part? {
        try MultipartReader.read(
            body([("Content-Disposition: \(disposition)", [])]), boundary: "B", options: .init(lenient: lenient)
        ).first
    }

    @Test(
        "quoted values: WHATWG percent escapes, or backslash escapes when the value has \\\"",
        arguments: [
            (#"form-data; name="a%22b%0D%0Ac""#, "a\"b\r\nc"),
            (#"form-data; name="back\slash""#, #"back\slash"#),
            (#"form-data; name="trailing\""#, #"trailing\"#),
            (#"form-data; name="legacy \"q\" \\ end""#, #"legacy "q" \ end"#),
            (#"form-data; name="%zz and %22x%22""#, #"%zz and "x""#),
            (#"form-data; name="lower %0a stays""#, "lower %0a stays"),
            (#"form-data; name=token%22"#, "token\""),
            (#"form-data; name="""#, ""),
            (#"FORM-DATA ;name="semi;colon";  filename="f""#, "semi;colon"),
        ])
    func unquoting(disposition: String, name: String) throws {
        let part = try parse(disposition)
        #expect(part?.name == name)
        #expect(part?.dispositionType == "form-data")
    }

    @Test(
        "filename* in UTF-8 or ISO-8859-1, preferred for the safe name",
        arguments: [
            ("UTF-8''%E2%82%AC%20rates.txt", "€ rates.txt"),
            ("utf-8'en'a%2Fb.txt", "a/b.txt"),
            ("ISO-8859-1''%A3%20and%20%E9.txt", "£ and é.txt"),
            ("UTF-8''plain.txt", "plain.txt"),
        ])
    func extendedFileNames(value: String, decoded: String) throws {
        let part = try parse("form-data; name=\"f\"; filename=\"fallback.txt\"; filename*=\(value)")
        #expect(part?.filename == "fallback.txt")
        #expect(part?.filenameStar == decoded)
        #expect(part?.safeFilename == decoded.split(separator: "/").last.map(String.init))
    }

    @Test(
        "a malformed filename* is an error in strict mode and ignored in lenient mode",
        arguments: [
            "UTF-8'%E2%82%AC.txt", "UTF-8''%E2%82", "UTF-8''%G1", "UTF-8''a*b", "koi8-r''x",
        ])
    func badExtendedFileNames(value: String) throws {
        let disposition = "form-data; name=\"f\"; filename*=\(value)"
        #expect(throws: SatchelError.self) { try parse(disposition) }
        #expect(try parse(disposition, lenient: true)?.filenameStar == nil)
    }

    @Test("a quoted filename* is an error in strict mode and read in lenient mode")
    func quotedExtendedFileName() throws {
        let disposition = "form-data; name=\"f\"; filename*=\"UTF-8''%C3%A9\""
        #expect(throws: SatchelError.self) { try parse(disposition) }
        #expect(try parse(disposition, lenient: true)?.filenameStar == "é")
    }

    @Test(
        "the safe file name has no folder, no control characters, and is never . or ..",
        arguments: [
            ("../../etc/passwd", "passwd"),
            (#"C:\Users\ann\x.txt"#, "x.txt"),
            ("a/b\\c", "c"),
            ("..", nil),
            ("dir/..", nil),
            ("dir/.", nil),
            ("trailing/", nil),
            ("tab\there.txt", "tabhere.txt"),
            ("..hidden..txt", "..hidden..txt"),
            ("", nil),
        ] as [(String, String?)])
    func safeNames(raw: String, safe: String?) throws {
        let part = try parse("form-data; name=\"f\"; filename=\"\(raw)\"")
        #expect(part?.filename == raw)
        #expect(part?.safeFilename == safe)
    }

    @Test("headers: names keep their case, lookup ignores it, folded lines join, non-UTF-8 reads as ISO-8859-1")
    func headers() throws {
        let head =
            Array("--B\r\ncOnTeNt-DiSpOsItIoN: form-data; name=\"f\"; filename=\"".utf8) + [0xE9, 0x74, 0xE9]
            + Array(".txt\"\r\nX-Long: one\r\n  two\r\n\tthree\r\n\r\nv\r\n--B--".utf8)
        let part = try #require(try MultipartReader.read(head, boundary: "B").first)
        #expect(part.headers.map(\.name) == ["cOnTeNt-DiSpOsItIoN", "X-Long"])
        #expect(part.header("content-disposition") == "form-data; name=\"f\"; filename=\"été.txt\"")
        #expect(part.header("X-LONG") == "one two three")
        #expect(part.header("missing") == nil)
        #expect(part.filename == "été.txt")
    }

    @Test("package parser of token and parameters keeps quoted values raw")
    func parameterizedHeader() throws {
        let parsed = try parseParameterizedHeader(
            #" Form-Data; NAME="a\"b"; filename*=UTF-8''x; ;empty="""#, what: "Content-Disposition")
        #expect(parsed.token == "form-data")
        #expect(parsed.parameters.map(\.name) == ["name", "filename*", "empty"])
        #expect(parsed.parameters.map(\.value) == [#"a\"b"#, "UTF-8''x", ""])
        #expect(parsed.parameters.map(\.isQuoted) == [true, false, true])
        #expect(parsed.parameters.first?.offset == 17)
        let plain = try parseParameterizedHeader(#"x; a="end\"; b=1"#, what: "X", backslashEscapes: false)
        #expect(plain.parameters.map(\.value) == [#"end\"#, "1"])
        let error = #expect(throws: SatchelError.self) {
            try parseParameterizedHeader("x; a", what: "Content-Disposition")
        }
        #expect(error?.code == .invalidMediaType)
        #expect(error?.message.contains("Content-Disposition") == true)
        #expect(throws: SatchelError.self) { try parseParameterizedHeader(#"x; a="open"#, what: "X") }
        #expect(throws: SatchelError.self) { try parseParameterizedHeader("", what: "X") }
    }
}
