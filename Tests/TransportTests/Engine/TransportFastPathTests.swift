// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Testing

@testable import Transport

/// The per-request shortcuts (status lines and field lines read from their bytes, the last
/// resolved URL kept) answer as the string parsing and the URL parser they replaced.
@Suite struct TransportFastPathTests {
    /// Status lines of the usual shape and the unusual ones (marked) read as the string parser
    /// read them: spaces collapsed before the code, the reason phrase kept as sent.
    @Test(arguments: [
        ("HTTP/1.1 200 OK", 200, "OK", "1.1"),
        ("HTTP/2 204", 204, "", "2"),
        ("HTTP/1.1 200 ", 200, "", "1.1"),
        ("HTTP/1.1 404 Not Found ", 404, "Not Found ", "1.1"),
        ("HTTP/1.0 999 Custom\t", 999, "Custom\t", "1.0"),
        ("HTTP/1.1 200  Two spaces", 200, " Two spaces", "1.1"),  // unusual: two spaces
        ("HTTP/1.1  301 Moved", 301, "Moved", "1.1"),  // unusual: two spaces before the code
        ("HTTP/ 100 Continue", 100, "Continue", ""),
    ])
    func statusLinesParseAlikeOnEitherPath(line: String, code: Int, reason: String, version: String) throws {
        var parser = ResponseHeadParser()
        #expect(try Array((line + "\r\n").utf8).withUnsafeBytes { try parser.take($0) } == nil)
        #expect(parser.version == version)
        let head: HTTPResponse?
        if code < 200 {
            #expect(try Array("\r\n".utf8).withUnsafeBytes { try parser.take($0) } == nil)  // interim
            head = try Array("HTTP/1.1 200 OK\r\n\r\n".utf8).withUnsafeBytes { bytes in
                try parser.take(UnsafeRawBufferPointer(rebasing: bytes[0..<17]))
            }
            #expect(head == nil)
            return
        }
        head = try Array("\r\n".utf8).withUnsafeBytes { try parser.take($0) }
        let status = try #require(head?.status)
        #expect(status.code == code)
        #expect(status.reasonPhrase == reason)
    }

    @Test(arguments: [
        "HTTP/1.1 20 OK", "HTTP/1.1 099 Low", "HTTP/1.1 2000 Big", "HTTP/1.1 20x OK", "HTTP/1.1 +99 Plus",
        "HTTX/1.1 200 OK",
        "HTTP/1.1 99999999999999999999999999 Overflow", "HTTP/1.1",
    ])
    func malformedStatusLinesAreRefusedOnEitherPath(line: String) {
        var parser = ResponseHeadParser()
        #expect(throws: SatchelError.self) {
            try Array((line + "\r\n").utf8).withUnsafeBytes { _ = try parser.take($0) }
        }
    }

    @Test func fieldValuesAreTrimmedOfSpacesAndTabsOnly() throws {
        var parser = ResponseHeadParser()
        let lines = ["HTTP/1.1 200 OK", "X-A: \t value with  inner \t ", "X-B:", "X-C:   ", "Content-Length: 0, 0", ""]
        var head: HTTPResponse?
        for line in lines { head = try Array((line + "\r\n").utf8).withUnsafeBytes { try parser.take($0) } }
        let fields = try #require(head?.headerFields)
        #expect(fields[HTTPField.Name("X-A")!] == "value with  inner")
        #expect(fields[HTTPField.Name("X-B")!] == "")
        #expect(fields[HTTPField.Name("X-C")!] == "")
        var conflicting = ResponseHeadParser()
        for line in ["HTTP/1.1 200 OK", "Content-Length: 3, 4"] {
            _ = try Array((line + "\r\n").utf8).withUnsafeBytes { try conflicting.take($0) }
        }
        #expect(throws: SatchelError.self) { try Array("\r\n".utf8).withUnsafeBytes { _ = try conflicting.take($0) } }
    }

    /// Names matched against the table of common ones keep the spelling the server sent and
    /// equal the names parsed the long way; other spellings and unknown names take the long way.
    @Test func commonFieldNamesKeepTheirSpellingAndEqualParsedNames() throws {
        var parser = ResponseHeadParser()
        let names = [
            "Content-Type", "content-length", "CONTENT-ENCODING", "ETag", "etag", "X-Contents", "Dat", "Datex",
        ]
        var head: HTTPResponse?
        for line in ["HTTP/1.1 200 OK"] + names.map({ "\($0): v" }) + [""] {
            head = try Array((line + "\r\n").utf8).withUnsafeBytes { try parser.take($0) }
        }
        let fields = Array(try #require(head?.headerFields))
        #expect(fields.map(\.name.rawName) == names)
        #expect(fields.map(\.name) == names.map { HTTPField.Name($0)! })
        #expect(fields[1].name == .contentLength && fields[3].name == .eTag && fields[4].name == .eTag)
    }

    /// `combinedValue` answers as the subscript it replaces on the hot path.
    @Test func combinedValuesEqualTheSubscript() {
        var fields: HTTPFields = [.accept: "a/b", .contentType: "text/plain", .cookie: "a=1"]
        fields.append(HTTPField(name: .accept, value: "c/d"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        for name in [HTTPField.Name.accept, .contentType, .cookie, .contentLength] {
            #expect(fields.combinedValue(name) == fields[name])
        }
        #expect(fields.combinedValue(.accept) == "a/b, c/d")
        #expect(fields.combinedValue(.cookie) == "a=1; b=2")
        #expect(fields.combinedValue(.contentLength) == nil)
    }

    @Test func theResolvedURLCacheAnswersAsTheParserDoes() throws {
        let cache = ResolvedURLCache()
        let cases: [(String, String?)] = [
            ("a/b?x=1", "http://h.test/v1/"), ("a/b?x=1", "http://h.test/v1/"), ("a/b?x=1", "http://other.test/"),
            ("a/b?x=1", nil), ("ftp://h.test/", nil), ("http://x.test/p", nil), ("http://x.test/p", nil),
            ("../up", "https://h.test/v1/deep/"),
        ]
        for (reference, base) in cases {
            let direct = Result { () throws(SatchelError) in try ResolvedURL(reference, relativeTo: base) }
            let cached = Result { () throws(SatchelError) in try cache.resolve(reference, relativeTo: base) }
            switch (direct, cached) {
            case let (.success(expected), .success(actual)): #expect(actual == expected)
            case let (.failure(expected), .failure(actual)): #expect(actual.code == expected.code)
            default: Issue.record("\(reference) against \(base ?? "no base"): \(direct) but the cache gave \(cached)")
            }
        }
    }
}
