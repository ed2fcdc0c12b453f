// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import satchel

/// httpie's item grammar: the first unescaped separator wins, the longest at that position;
/// backslashes escape separator characters.
@Suite struct RequestItemParsingTests {
    @Test(arguments: [
        ("a=b", RequestItem.field(name: "a", value: "b")),
        ("a==b", .query(name: "a", value: "b")),
        ("a:=[1]", .json(name: "a", text: "[1]")),
        ("a:=@f.json", .jsonFromFile(name: "a", path: "f.json")),
        ("a=@f.txt", .fieldFromFile(name: "a", path: "f.txt")),
        ("a@f.png", .file(name: "a", path: "f.png", mediaType: nil)),
        ("a@f.bin;type=image/png", .file(name: "a", path: "f.bin", mediaType: "image/png")),
        ("X-A: b", .header(name: "X-A", value: "b")),
        ("X-A:b=c", .header(name: "X-A", value: "b=c")),
        ("a=b:c", .field(name: "a", value: "b:c")),
        ("a=b=c", .field(name: "a", value: "b=c")),
        (#"a\=b=c"#, .field(name: "a=b", value: "c")),
        (#"a\:b:c"#, .header(name: "a:b", value: "c")),
        (#"a\@b=c"#, .field(name: "a@b", value: "c")),
        (#"a\\=b"#, .field(name: #"a\"#, value: "b")),
        (#"a\nb=c"#, .field(name: #"a\nb"#, value: "c")),
        (#"a=b\=c"#, .field(name: "a", value: "b=c")),
        ("a=", .field(name: "a", value: "")),
    ])
    func parses(_ text: String, _ expected: RequestItem) throws {
        #expect(try RequestItem(parsing: text) == expected)
    }

    @Test(arguments: ["plain", "=x", "==x", ":=1", "@file", ":x", "a@", #"a\=b"#, ""])
    func rejects(_ text: String) {
        #expect(throws: UsageError.self) { try RequestItem(parsing: text) }
    }

    @Test func expandsURLShorthands() throws {
        #expect(try RequestPlan.normalizedURL(":8080/x") == "http://localhost:8080/x")
        #expect(try RequestPlan.normalizedURL(":/x") == "http://localhost/x")
        #expect(try RequestPlan.normalizedURL(":") == "http://localhost")
        #expect(try RequestPlan.normalizedURL("example.com/a") == "http://example.com/a")
        #expect(try RequestPlan.normalizedURL("HTTPS://example.com") == "HTTPS://example.com")
        #expect(throws: UsageError.self) { try RequestPlan.normalizedURL("ftp://example.com") }
        #expect(throws: UsageError.self) { try RequestPlan.normalizedURL("http://") }
    }

    @Test func chooseTheSerializerFromTheItems() throws {
        func format(_ items: [String], _ asked: RequestFormat? = nil) throws -> RequestFormat {
            try RequestPlan(
                method: "post", url: "h", items: items.map(RequestItem.init(parsing:)), format: asked, limits: .default
            ).format
        }
        #expect(try format(["a=1"]) == .form)
        #expect(try format(["a:=1"]) == .json)
        #expect(try format(["a@/etc/hostname"]) == .multipart)
        #expect(try format(["a@/etc/hostname"], .form) == .multipart)
        #expect(try format(["a:=1"], .plist) == .plist)
        #expect(throws: UsageError.self) { try format(["a:=1"], .multipart) }
        #expect(throws: UsageError.self) { try format(["a@/etc/hostname"], .plist) }
    }
}
