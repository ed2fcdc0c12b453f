// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import Transport

/// The `Set-Cookie` reading that notes `SameSite` beside libcurl's store: the key it computes,
/// and hostile or truncated fields, which are skipped or read without a trap.
@Suite struct SetCookieParsingTests {
    func parse(_ field: String, path: String = "/a/b/page") -> (key: Cookie.Key, sameSite: Cookie.SameSite?)? {
        Cookie.sameSite(ofSetCookie: field, host: "api.example.com", requestPath: path)
    }

    @Test func theKeyIsTheOneLibcurlStoresUnder() throws {
        let explicit = try #require(parse(" id = 7 ; Domain=.Example.COM; Path=/x; SameSite=lax"))
        #expect(explicit.key == Cookie.Key(name: "id", domain: "example.com", path: "/x"))
        #expect(explicit.sameSite == .lax)
        let defaults = try #require(parse("id=7; SameSite=Strict"))
        #expect(defaults.key == Cookie.Key(name: "id", domain: "api.example.com", path: "/a/b/"))
        #expect(defaults.sameSite == .strict)
        #expect(try #require(parse("id=7", path: "")).key.path == "/")
    }

    @Test(arguments: ["", "=", "noequals", "=value", " ;;; ", "\t=\t"])
    func aFieldWithoutANameIsSkipped(field: String) {
        #expect(parse(field) == nil)
    }

    @Test func oddAttributesAreReadWithoutATrap() throws {
        #expect(try #require(parse("a=1; SameSite")).sameSite == nil)
        #expect(try #require(parse("a=1; SameSite=Sometimes")).sameSite == nil)
        #expect(
            try #require(parse("a=1; Path=; Domain=")).key
                == Cookie.Key(name: "a", domain: "api.example.com", path: "/a/b/"))
        let huge = String(repeating: "v", count: 100_000)
        #expect(try #require(parse("big=\(huge); SameSite=None")).sameSite == Cookie.SameSite.none)
        let many = "a=1" + String(repeating: "; x", count: 10_000)
        #expect(try #require(parse(many)).key.name == "a")
    }
}
