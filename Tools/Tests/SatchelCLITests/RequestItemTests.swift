// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request` against httpbin, which echoes what it received: every item kind and each
/// serializer choice, checked in httpbin's own parse of the request.
@Suite struct RequestItemTests {
    /// Runs `satchel request` and parses its standard output as JSON (httpbin's echo).
    static func echo(_ arguments: [String]) throws -> [String: Any] {
        let result = try CommandRunner.run(["request", "--color", "never"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.errorOutput)")
        #expect(result.errorOutput.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(result.outputBytes))
        return try #require(object as? [String: Any])
    }

    @Test func formIsTheDefault() throws {
        let httpbin = try TestServers.shared().httpbin.absoluteString
        let echo = try Self.echo([
            "POST", "\(httpbin)/post", "name=Ann Lee", #"a\=b=c"#, "tag=x", "tag=y", "q==1 2", "X-Custom:yes",
        ])
        // A repeated name is an array, which the form serializer writes AFNetworking's way (tag[]).
        let form = try #require(echo["form"] as? [String: Any])
        #expect(form["name"] as? String == "Ann Lee")
        #expect(form["a=b"] as? String == "c")
        #expect(form["tag[]"] as? [String] == ["x", "y"])
        #expect(echo["args"] as? [String: String] == ["q": "1 2"])
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["X-Custom"] == "yes")
        #expect(headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func rawJSONItemsChooseJSON() throws {
        let httpbin = try TestServers.shared().httpbin.absoluteString
        let echo = try Self.echo(["PUT", "\(httpbin)/put", "name=Ann", "age:=42", #"tags:=["a",{"b":null}]"#])
        let json = try #require(echo["json"] as? [String: Any])
        #expect(json["name"] as? String == "Ann")
        #expect(json["age"] as? Int == 42)
        #expect((json["tags"] as? [Any])?.count == 2)
        #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/json")
    }

    @Test func jsonFlagSendsFieldsAsStrings() throws {
        let httpbin = try TestServers.shared().httpbin.absoluteString
        let echo = try Self.echo(["POST", "\(httpbin)/post", "--json", "n=5"])
        #expect(echo["json"] as? [String: String] == ["n": "5"])
    }

    @Test func fileItemsChooseMultipart() throws {
        let httpbin = try TestServers.shared().httpbin.absoluteString
        let file = try CommandRunner.temporaryFile("file contents\n")
        let fieldFile = try CommandRunner.temporaryFile("from a file")
        defer { for path in [file, fieldFile] { try? FileManager.default.removeItem(atPath: path) } }
        let echo = try Self.echo([
            "POST", "\(httpbin)/post", "note=hi", "upload@\(file);type=text/plain", "long=@\(fieldFile)",
        ])
        #expect(echo["files"] as? [String: String] == ["upload": "file contents\n"])
        #expect(echo["form"] as? [String: String] == ["note": "hi", "long": "from a file"])
        let type = (echo["headers"] as? [String: String])?["Content-Type"] ?? ""
        #expect(type.hasPrefix("multipart/form-data; boundary="))
    }

    @Test func multipartFlagWithoutFiles() throws {
        let httpbin = try TestServers.shared().httpbin.absoluteString
        let echo = try Self.echo(["POST", "\(httpbin)/post", "--multipart", "a=1"])
        #expect(echo["form"] as? [String: String] == ["a": "1"])
        let contentType = (echo["headers"] as? [String: String])?["Content-Type"] ?? ""
        #expect(contentType.hasPrefix("multipart/form-data"), "\(contentType)")
    }

    @Test func plistFlagSendsAPropertyList() throws {
        let httpbin = try TestServers.shared().httpbin.absoluteString
        let echo = try Self.echo(["POST", "\(httpbin)/post", "--plist", "a=1", "n:=2"])
        let data = try #require(echo["data"] as? String)
        // Python's plistlib reads what was sent.
        let check = try VenvPython.run(
            "import plistlib,sys; v=plistlib.loads(sys.argv[1].encode()); sys.exit(0 if v=={'a':'1','n':2} else 1)",
            [data])
        #expect(check.status == 0)
        #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/x-plist")
    }

    @Test func bodylessMethodsPutFieldsInTheQuery() throws {
        let httpbin = try TestServers.shared().httpbin.absoluteString
        let port = try #require(try TestServers.shared().httpbin.port)
        let echo = try Self.echo(["GET", ":\(port)/get", "a=1", "b==2", "--header", "X-One: 1", "--auth", "ann:s3cret"])
        #expect(echo["args"] as? [String: String] == ["a": "1", "b": "2"])
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["X-One"] == "1")
        #expect(headers["Authorization"] == "Basic " + Data("ann:s3cret".utf8).base64EncodedString())
        #expect(headers["Host"] == "localhost:\(port)")
        let deleted = try Self.echo(["DELETE", "\(httpbin)/delete", "x=y"])
        #expect(deleted["args"] as? [String: String] == ["x": "y"])
    }
}
