// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Satchel's parser against independent ones: Python's `multipart` package (strict mode, WHATWG
/// quoting), werkzeug's form parser and python-multipart, on bodies made by urllib3, requests,
/// curl, browsers, Python's email quoting and Satchel's own builder.
@Suite("Multipart parser: round trips against Python's parsers")
struct MultipartReaderRoundTripTests {
    /// A fresh folder, removed afterwards.
    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-roundtrip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    private func python(_ parser: String, _ name: String, in folder: URL) throws -> PythonMultipart.Form {
        let type = try String(contentsOf: folder.appendingPathComponent("\(name).content-type"), encoding: .utf8)
        return try PythonMultipart.Form(
            json: PythonMultipart.run([
                "parse", "--parser", parser, "--content-type", type, folder.appendingPathComponent("\(name).body").path,
            ]))
    }

    private func satchel(
        _ name: String, in folder: URL, chunkSize: Int = 0, options: MultipartReader.Options = .init()
    ) throws -> PythonMultipart.Form {
        let (body, type) = try MultipartSamples.load(name, in: folder)
        return try PythonMultipart.Form(
            parts: parseParts(body, contentType: type, chunkSize: chunkSize, options: options))
    }

    /// Python's strict parsers read CRLF only; their hostile bodies hold `LF--boundary` as content.
    private let crlfOnly = MultipartReader.Options(lineEndings: .crlf)

    @Test("hostile names and delimiter-like binary files from urllib3 and requests: Satchel = multipart = what went in")
    func pythonGeneratedBodies() throws {
        guard PythonMultipart.available() else { return }
        try withFolder { folder in
            _ = try PythonMultipart.run(["generate", folder.path])
            for name in ["urllib3-hostile", "requests-hostile"] {
                let expected = try PythonMultipart.Form(
                    json: Data(contentsOf: folder.appendingPathComponent("\(name).expected.json")))
                #expect(!expected.files.isEmpty && !expected.fields.isEmpty)
                let reference = try python("multipart", name, in: folder)
                #expect(reference == expected, "Python's multipart does not read back \(name)")
                for size in [1, 7, 4096, 0] {
                    let parsed = try satchel(name, in: folder, chunkSize: size, options: crlfOnly)
                    #expect(parsed == reference, "\(name), chunks of \(size):\n\(parsed)\nPython:\n\(reference)")
                }
            }
            // werkzeug 3.1.9 takes "LF--boundary" for a delimiter (RFC 2046 and Python's strict
            // multipart do not) and does not undo WHATWG escapes, so it only checks plainer bodies.
            #expect(try python("werkzeug", "requests-hostile", in: folder) == satchel("requests-hostile", in: folder))
        }
    }

    @Test("the names that try to escape are kept, and the safe base name cannot climb out of a folder")
    func hostileNamesThroughSatchel() throws {
        guard PythonMultipart.available() else { return }
        try withFolder { folder in
            _ = try PythonMultipart.run(["generate", folder.path])
            let (body, type) = try MultipartSamples.load("urllib3-hostile", in: folder)
            let parts = try parseParts(body, contentType: type, options: crlfOnly)
            #expect(parts.contains { $0.name == "cr\rlf\nboth\r\n" })
            #expect(parts.contains { $0.name == #"semi;colon=value; filename="evil""# && $0.filename == nil })
            let files = parts.filter { $0.filename != nil }
            #expect(
                files.map(\.filename) == [
                    #""quoted".txt"#, "../../../etc/passwd", #"..\..\windows\system.ini"#,
                    "line\r\nContent-Type: text/html\r\n\r\n.txt", "semi;colon.txt", "résumé – 履歴書.pdf",
                    "name with %25 percent.txt",
                ])
            #expect(
                files.map(\.safeFilename) == [
                    #""quoted".txt"#, "passwd", "system.ini", "html.txt", "semi;colon.txt",
                    "résumé – 履歴書.pdf", "name with %25 percent.txt",
                ])
            for name in files.compactMap(\.safeFilename) {
                #expect(!name.contains("/") && !name.contains("\\") && name != ".." && name != ".")
            }
        }
    }

    @Test(
        "curl, requests and browser fixtures read the same in Python's parsers",
        arguments: [
            ("curl-form", true), ("requests-form", true), ("chrome-form", false), ("firefox-form", true),
        ])
    func fixturesAgree(name: String, werkzeugToo: Bool) throws {
        guard PythonMultipart.available() else { return }
        let folder = MultipartSamples.directory
        let parsed = try satchel(name, in: folder)
        #expect(try python("multipart", name, in: folder) == parsed)
        // werkzeug does not undo the %22 and %0A escapes of current browsers.
        if werkzeugToo { #expect(try python("werkzeug", name, in: folder) == parsed) }
    }

    @Test("bodies built by MultipartFormData read the same in Python's multipart and in Satchel")
    func satchelBuiltBodies() throws {
        guard PythonMultipart.available() else { return }
        let boundary = "SatchelBuilt4f1c"
        let names = [
            "quote\"inside", "cr\rlf\nboth", "semi;colon=x; filename=\"evil\"", "ünïcödé ✓", "../../etc/passwd",
            "back\\slash", "",
        ]
        let fileNames = [
            "\"quoted\".txt", "../../../etc/passwd", "..\\..\\boot.ini", "line\r\nX-Injected: 1.txt", "semi;colon.txt",
            "résumé – 履歴書.pdf",
        ]
        let payloads: [[UInt8]] = [
            bytes(" --\(boundary)\r\n"), bytes("\r\n--\(String(boundary.dropLast()))\r\n"), Array(0...255) + [0x0D],
            bytes("\r\n\r\n--\r\n--\r\n-\(boundary)"), [], bytes("\n-\(boundary)--\n\r-\(boundary)"),
        ]
        var form = MultipartFormData(boundary: try MultipartBoundary(boundary))
        for (index, name) in names.enumerated() { form.append("value \(index): \(name)", name: name) }
        for (index, filename) in fileNames.enumerated() {
            try form.append(payloads[index], name: "file\(index)", filename: filename, mediaType: .octetStream)
        }
        var nested = MultipartFormData(subtype: .mixed, boundary: try MultipartBoundary("nested-7e2"))
        try nested.append(bytes("inner one"), name: "one", filename: "one.txt", mediaType: .plainText)
        try nested.append(bytes(#"{"inner":true}"#), name: "two", filename: "two.json", mediaType: .json)
        try form.append(nested, name: "nested")
        let body = try form.bytes()

        try withFolder { folder in
            try Data(body).write(to: folder.appendingPathComponent("built.body"))
            try form.contentType.description.write(
                to: folder.appendingPathComponent("built.content-type"), atomically: true, encoding: .utf8)
            // Satchel writes a quote, CR and LF as browsers do (%22, %0D, %0A) and reads them back;
            // werkzeug undoes %22 and leaves %0D and %0A, python-multipart leaves all three, as
            // each does in a browser's body.
            let werkzeug = try python("werkzeug", "built", in: folder)
            for size in [1, 7, 4096, 0] {
                let parsed = try satchel("built", in: folder, chunkSize: size)
                #expect(
                    parsed.escaping("\r\n") == werkzeug, "chunks of \(size):\n\(parsed)\nwerkzeug:\n\(werkzeug)")
            }
            // python-multipart does not read filename*, so it gets the ASCII fallback of the last name.
            let other = try python("python-multipart", "built", in: folder)
            let asSent = try satchel("built", in: folder).escaping("\r\n\"")
            #expect(other.fields == asSent.fields)
            #expect(other.files.dropLast() == asSent.files.dropLast())
            #expect(other.files.last?[1] == "r_sum_ _ ___.pdf")
            let parts = try parseParts(body, contentType: form.contentType)
            #expect(parts.compactMap(\.name).prefix(names.count) == names[...])
            let files = parts.filter { $0.filename != nil }
            #expect(files.map { $0.filenameStar ?? $0.filename } == fileNames)
            #expect(try files.map { try $0.bytes() } == payloads)

            let elements = multipartElements(try multipartRegistry().decode(body, contentType: form.contentType))
            let inner = multipartElements(elements.last?.value)
            #expect(inner.map(\.part.filename) == ["one.txt", "two.json"])
            #expect(inner.map(\.value) == ["inner one", ["inner": true]])
        }
    }

    @Test(
        "boundaries with every RFC 2046 character and names with every escape, as urllib3 and RFC 9110 quoting write them"
    )
    func otherSendersEscapesAndBoundaries() throws {
        guard PythonMultipart.available() else { return }
        try withFolder { folder in
            _ = try PythonMultipart.run(["senders", folder.path])
            for name in ["urllib3-rfc2046", "email-quoted"] {
                let expected = try PythonMultipart.Form(
                    json: Data(contentsOf: folder.appendingPathComponent("\(name).expected.json")))
                #expect(!expected.files.isEmpty && !expected.fields.isEmpty)
                for size in [1, 7, 0] {
                    let parsed = try satchel(name, in: folder, chunkSize: size)
                    #expect(parsed == expected, "\(name), chunks of \(size):\n\(parsed)\nexpected:\n\(expected)")
                }
            }
            // An independent witness for the backslash escapes: python-multipart reads them alike.
            #expect(
                try python("python-multipart", "email-quoted", in: folder)
                    == PythonMultipart.Form(
                        json: Data(contentsOf: folder.appendingPathComponent("email-quoted.expected.json"))))
        }
    }

    @Test(
        "a body Satchel builds with those names reads in werkzeug and python-multipart as a browser's, and in multipart as sent"
    )
    func satchelBuiltEscapes() throws {
        guard PythonMultipart.available() else { return }
        let escapes = try JSONSerialization.jsonObject(with: PythonMultipart.run(["escapes"])) as? [String: Any]
        let boundary = try #require(escapes?["boundary"] as? String)
        let names = try #require(escapes?["names"] as? [String])
        let fileNames = try #require(escapes?["filenames"] as? [String])
        var form = MultipartFormData(boundary: try MultipartBoundary(boundary))
        for (index, name) in names.enumerated() { form.append("value \(index)", name: name) }
        for (index, filename) in fileNames.enumerated() {
            try form.append(bytes("contents \(index)"), name: "file\(index)", filename: filename, mediaType: .plainText)
        }
        let body = try form.bytes()
        #expect(form.contentType.description.contains("boundary=\"\(boundary)\""))
        try withFolder { folder in
            try Data(body).write(to: folder.appendingPathComponent("built.body"))
            try form.contentType.description.write(
                to: folder.appendingPathComponent("built.content-type"), atomically: true, encoding: .utf8)
            let satchel = try satchel("built", in: folder)
            #expect(satchel.fields.map(\.first) == names)
            // werkzeug and python-multipart read the body as they read a browser's: werkzeug undoes
            // %22, python-multipart leaves it; a backslash, escaped as urllib3 escapes it, comes back
            // single in both. Non-ASCII file names travel in filename*, which neither reads.
            for (parser, kept) in [("werkzeug", ""), ("python-multipart", "\"")] {
                let parsed = try python(parser, "built", in: folder)
                let expected = satchel.escaping(kept)
                #expect(parsed.fields == expected.fields, "\(parser)")
                #expect(parsed.files.map { [$0[0], $0[3]] } == expected.files.map { [$0[0], $0[3]] }, "\(parser)")
                let ascii = zip(parsed.files, fileNames).filter { $1.utf8.allSatisfy { $0 < 0x80 } }
                #expect(
                    ascii.allSatisfy { $0[1] == (kept.isEmpty ? $1 : $1.replacingOccurrences(of: "\"", with: "%22")) },
                    "\(parser): \(parsed.files)")
            }
            // Python's multipart reads only what browsers write (it undoes %22, %0D and %0A, and
            // backslash escapes only in a value that also holds \"): every name without a
            // backslash comes back as it went in; one with a backslash, which browsers leave alone
            // and Satchel writes as urllib3 does, comes back with it doubled.
            let browserForm = try python("multipart", "built", in: folder)
            #expect(browserForm.fields.count == names.count)
            for (parsed, name) in zip(browserForm.fields, names) {
                #expect(
                    parsed.first == (name.contains("\\") ? name.replacingOccurrences(of: "\\", with: "\\\\") : name))
            }
            let plainFiles = zip(browserForm.files, fileNames).filter {
                !$1.contains("\\") && $1.utf8.allSatisfy { $0 < 0x80 }
            }
            #expect(!plainFiles.isEmpty && plainFiles.allSatisfy { $0[1] == $1 }, "\(browserForm.files)")
        }
    }
}

extension PythonMultipart.Form {
    /// The form with the characters of `kept` (among `"`, CR and LF) in names and file names
    /// written as `%22`, `%0D` and `%0A`: what a parser that leaves those WHATWG escapes reads.
    func escaping(_ kept: String) -> Self {
        let escapes: [Unicode.Scalar: String] = ["\"": "%22", "\r": "%0D", "\n": "%0A"]
        func escape(_ text: String?) -> String? {
            // By scalars: "\r\n" is one Character.
            text.map { text in
                text.unicodeScalars.map { kept.unicodeScalars.contains($0) ? escapes[$0] ?? String($0) : String($0) }
                    .joined()
            }
        }
        var copy = self
        copy.fields = fields.map { [escape($0[0]) ?? ""] + $0.dropFirst() }
        copy.files = files.map { [escape($0[0]), escape($0[1])] + $0.dropFirst(2) }
        return copy
    }
}
