// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

@Suite struct CLITests {
    let parameters = #"{"user":{"name":"Ann Lee","tags":["a","b/c"]},"page":2,"q":null,"ok":true}"#
    let formOfParameters = "ok=1&page=2&q&user%5Bname%5D=Ann%20Lee&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b/c"

    /// `satchel --version` prints the project's version (VERSION, scripts/set-version).
    @Test func versionIsTheProjects() throws {
        let version = try String(contentsOf: TestServers.root.appendingPathComponent("VERSION"), encoding: .utf8)
        let result = try CommandRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == version)
    }

    @Test func encodesFormBodyForPost() throws {
        let file = try CommandRunner.temporaryFile(parameters)
        let result = try CommandRunner.run(["encode", "--as", "form", file])
        #expect(result.status == 0)
        #expect(result.output == formOfParameters + "\n")
        #expect(result.errorOutput.isEmpty)
    }

    @Test(arguments: ["GET", "head", "DELETE"])
    func encodesQueryStringForURLMethods(_ method: String) throws {
        let result = try CommandRunner.run(
            ["encode", "--as", "form", "--method", method, "-"], input: Array(parameters.utf8))
        #expect(result.status == 0)
        #expect(result.output == formOfParameters + "\n")
        let json = try CommandRunner.run(
            ["encode", "--as", "json", "--method", method, "--include-headers"], input: Array(parameters.utf8))
        #expect(json.output.hasPrefix("\(method.uppercased()) /?\(formOfParameters) HTTP/1.1\r\n"))
        #expect(!json.output.contains("Content-Type"))
    }

    @Test func encodesJSONWithHeaders() throws {
        let result = try CommandRunner.run(
            ["encode", "--as", "json", "--include-headers"], input: Array(parameters.utf8))
        #expect(result.status == 0)
        let parts = result.output.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2)
        let body = #"{"user":{"name":"Ann Lee","tags":["a","b\/c"]},"page":2,"q":null,"ok":true}"#
        #expect(parts.last == body)
        let head = parts.first ?? ""
        #expect(head.hasPrefix("POST / HTTP/1.1\r\n"))
        #expect(
            head.contains("\r\nContent-Type: application/json\r\n") || head.hasSuffix("Content-Type: application/json"))
        #expect(head.contains("Content-Length: \(body.utf8.count)"))
        #expect(head.contains("User-Agent: Satchel/"))
    }

    @Test func encodesJSONWithOptions() throws {
        let result = try CommandRunner.run(
            ["encode", "--as", "json", "--sorted-keys", "--without-escaping-slashes", "--pretty"],
            input: Array(#"{"z":"a/b","a":1}"#.utf8))
        #expect(result.output == "{\n  \"a\": 1,\n  \"z\": \"a/b\"\n}\n")
    }

    @Test func decodesJSONToCanonicalJSON() throws {
        let result = try CommandRunner.run(
            ["decode"], input: Array(#" {"a":[1,2.5,{"b":"é\u00e9"}],"big":18446744073709551615} "#.utf8))
        #expect(result.status == 0)
        #expect(result.output == #"{"a":[1,2.5,{"b":"éé"}],"big":18446744073709551615}"# + "\n")
        let pretty = try CommandRunner.run(["decode", "--pretty"], input: Array(#"{"a":[1]}"#.utf8))
        #expect(pretty.output == "{\n  \"a\": [\n    1\n  ]\n}\n")
    }

    @Test func decodesFormBodies() throws {
        let result = try CommandRunner.run(
            ["decode", "--content-type", "application/x-www-form-urlencoded; charset=utf-8"],
            input: Array("a=1&b[c][]=x&b[c][]=y%20z&d".utf8))
        #expect(result.status == 0)
        #expect(result.output == #"{"a":"1","b":{"c":["x","y z"]},"d":null}"# + "\n")
    }

    @Test func jsonOptionsReachTheReader() throws {
        let big = Array("[123456789012345678901234567890]".utf8)
        #expect(try CommandRunner.run(["decode"], input: big).status == 65)
        #expect(
            try CommandRunner.run(["decode", "--big-integers", "string"], input: big).output
                == "[\"123456789012345678901234567890\"]\n")
        #expect(
            try CommandRunner.run(["decode", "--remove-nulls"], input: Array(#"{"a":null,"b":1}"#.utf8)).output
                == "{\"b\":1}\n")
        #expect(try CommandRunner.run(["decode", "--no-top-level-scalars"], input: Array("5".utf8)).status == 65)
    }

    /// One rule for every format (docs/CLI.md): an empty body prints nothing and exits 0; so
    /// does white space alone in JSON, XML and property lists, where it is content elsewhere.
    @Test(
        arguments: [
            ("application/json", true), ("application/problem+json", true), ("application/xml", true),
            ("application/x-plist", true), ("application/x-www-form-urlencoded", false),
            ("multipart/form-data; boundary=B", false), ("text/plain", false), ("image/png", false),
            ("application/http", false),
        ])
    func blankBodiesPrintNothing(type: String, whiteSpaceIsBlank: Bool) throws {
        for arguments in [["decode", "-c", type], ["decode", "-c", type, "-"]] {
            let result = try CommandRunner.run(arguments, input: [])
            #expect(result.status == 0, "\(type): \(result.errorOutput)")
            #expect(result.outputBytes.isEmpty && result.errorOutput.isEmpty)
        }
        for blank in [" ", " \r\n\t", "\u{FEFF} \n"] {
            let result = try CommandRunner.run(["decode", "-c", type], input: Array(blank.utf8))
            if whiteSpaceIsBlank {
                #expect(result.status == 0 && result.outputBytes.isEmpty, "\(type) \(blank.debugDescription)")
            } else {
                #expect(!result.outputBytes.isEmpty || result.status != 0, "\(type) \(blank.debugDescription)")
            }
        }
        if type == "text/plain" {
            #expect(try CommandRunner.run(["decode", "-c", type], input: [0x20]).output == "\" \"\n")
        }
    }

    /// Each failure class has its own exit code and exactly one line on standard error.
    @Test func failuresExitWithDocumentedCodes() throws {
        let cases: [(arguments: [String], input: String, status: Int32, mentions: String)] = [
            (["decode"], "[1,\n 2,\n x]", 65, "line 3, column 2"),
            (["decode"], "[1,", 65, "truncatedInput"),
            (["decode"], "[\"\\ud800\"]", 65, "lone surrogate"),
            (["decode", "-c", "application/pdf"], "%PDF", 67, "application/pdf"),
            (["decode", "-c", "text/"], "{}", 64, "subtype"),
            (["decode", "-c", ""], "{}", 64, "empty"),
            (["decode", "-c", "application/json; charset"], "{}", 64, "charset"),
            (["decode", "--max-depth", "2"], "[[[1]]]", 68, "maxDepth"),
            (["decode", "--max-body-bytes", "4"], "[1,2,3]", 68, "maxBodyBytes"),
            (["decode", "-c", "application/x-www-form-urlencoded"], "a=%zz", 65, "byte"),
            (["decode", "/nonexistent/file"], "", 66, "/nonexistent/file"),
            (["encode", "--as", "form"], "[1,2]", 65, "object"),
            (["encode", "--as", "form"], "{", 65, "truncatedInput"),
            (["encode", "--as", "yaml"], "{}", 64, "yaml"),
            (["encode", "--as", "json", "--method", "NOT A METHOD"], "{}", 64, "method"),
        ]
        for (arguments, input, status, mentions) in cases {
            let result = try CommandRunner.run(arguments, input: Array(input.utf8))
            #expect(result.status == status, "\(arguments): \(result.errorOutput)")
            #expect(result.outputBytes.isEmpty, "\(arguments)")
            if status != 64 || !arguments.contains("--as") {
                let lines = result.errorOutput.split(separator: "\n")
                #expect(lines.count == 1, "\(arguments): \(result.errorOutput)")
            }
            #expect(
                result.errorOutput.lowercased().contains(mentions.lowercased()), "\(arguments): \(result.errorOutput)")
        }
    }
}
