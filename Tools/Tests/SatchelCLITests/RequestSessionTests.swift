// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --session NAME|FILE`: headers, cookies and auth kept between runs in
/// httpie's session format, written with mode 0600.
@Suite(.hangGuard)
struct RequestSessionTests {
    let httpbin: String
    let directory: URL

    init() throws {
        httpbin = try TestServers.shared().httpbin.absoluteString.trimmingCharacters(in: ["/"])
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sessions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(
            ["request"] + arguments + ["--color", "never"], environment: ["XDG_CONFIG_HOME": directory.path])
    }

    func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aFileSessionKeepsHeadersCookiesAndAuth() throws {
        let path = directory.appendingPathComponent("api.json").path
        let first = try run([
            "GET", "\(httpbin)/cookies/set?flavour=oat", "X-Team:core", "--auth", "ann:s3cret", "--session", path,
        ])
        #expect(first.status == 0, "\(first.errorOutput)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let stored = try json(path)
        #expect((stored["__meta__"] as? [String: Any])?["about"] as? String == "HTTPie session file")
        #expect((stored["headers"] as? [[String: Any]])?.contains { $0["name"] as? String == "X-Team" } == true)
        #expect((stored["cookies"] as? [[String: Any]])?.first?["name"] as? String == "flavour")
        #expect((stored["auth"] as? [String: Any])?["raw_auth"] as? String == "ann:s3cret")

        // The next run sends all three without being told.
        let headers = try run(["GET", "\(httpbin)/headers", "--session", path])
        #expect(headers.status == 0, "\(headers.errorOutput)")
        #expect(headers.output.contains("\"X-Team\": \"core\""), "\(headers.output)")
        #expect(headers.output.contains("flavour=oat"))
        #expect(headers.output.contains("\"Authorization\": \"Basic YW5uOnMzY3JldA==\""))
        let auth = try run(["GET", "\(httpbin)/basic-auth/ann/s3cret", "--session", path])
        #expect(auth.status == 0, "\(auth.errorOutput)")
    }

    /// A NAME is kept per host under $XDG_CONFIG_HOME/satchel/sessions/HOST_PORT/NAME.json; a
    /// header given on the command line replaces the stored one.
    @Test func aNamedSessionLivesUnderTheConfigDirectory() throws {
        let port = try #require(URLComponents(string: httpbin)?.port)
        let first = try run(["GET", "\(httpbin)/get", "X-Mode:first", "--session", "dev"])
        #expect(first.status == 0, "\(first.errorOutput)")
        let path = directory.appendingPathComponent("satchel/sessions/127.0.0.1_\(port)/dev.json").path
        #expect(FileManager.default.fileExists(atPath: path))
        let second = try run(["GET", "\(httpbin)/headers", "X-Mode:second", "--session", "dev"])
        #expect(second.output.contains("\"X-Mode\": \"second\""), "\(second.output)")
        let third = try run(["GET", "\(httpbin)/headers", "--session", "dev"])
        #expect(third.output.contains("\"X-Mode\": \"second\""), "\(third.output)")
    }

    /// httpie 3.2 (installed by scripts/setup into .venv/httpie) reads a session satchel wrote
    /// and sends its headers, cookie and auth; satchel reads the file httpie wrote back, with the
    /// cookie httpie's response added.
    @Test func httpieAndSatchelShareASessionFile() throws {
        let path = directory.appendingPathComponent("shared.json").path
        let first = try run([
            "GET", "\(httpbin)/cookies/set?flavour=oat", "X-Team:core", "--auth", "ann:s3cret", "--session", path,
        ])
        #expect(first.status == 0, "\(first.errorOutput)")
        let httpie = try VenvPython.run(
            """
            import sys; sys.path.insert(0, sys.argv.pop(1))
            from httpie.core import main
            sys.exit(main(['http'] + sys.argv[1:]))
            """,
            [
                TestServers.root.appendingPathComponent(".venv/httpie").path, "--ignore-stdin", "--print=b",
                "--follow", "--session=\(path)", "GET", "\(httpbin)/cookies/set?second=2",
            ])
        #expect(httpie.status == 0)
        #expect(httpie.output.contains("\"flavour\": \"oat\""), "\(httpie.output)")
        let stored = try json(path)
        #expect((stored["__meta__"] as? [String: Any])?["httpie"] as? String == "3.2.4")
        let result = try run(["GET", "\(httpbin)/headers", "--session", path])
        #expect(result.output.contains("flavour=oat") && result.output.contains("second=2"), "\(result.output)")
        #expect(result.output.contains("\"X-Team\": \"core\""))
        #expect(result.output.contains("\"Authorization\": \"Basic YW5uOnMzY3JldA==\""))
    }

    /// A file in httpie's layout with a bearer token and a cookie with an empty domain is read.
    @Test func anHTTPieSessionFileIsRead() throws {
        let path = directory.appendingPathComponent("httpie.json").path
        let text = """
            {"__meta__": {"about": "HTTPie session file", "help": "https://httpie.io/docs#sessions", "httpie": "3.2.2"},
             "auth": {"type": "bearer", "raw_auth": "tok-123"},
             "cookies": [{"name": "from", "value": "httpie", "domain": "", "path": "/", "secure": false, "expires": null}],
             "headers": [{"name": "Accept-Language", "value": "fr"}]}
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run(["GET", "\(httpbin)/headers", "--session", path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("\"Authorization\": \"Bearer tok-123\""), "\(result.output)")
        #expect(result.output.contains("from=httpie"))
        #expect(result.output.contains("\"Accept-Language\": \"fr\""))
    }

    @Test func aBrokenSessionFileIsAClearError() throws {
        let path = directory.appendingPathComponent("broken.json").path
        try "{\"headers\": 3}".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run(["GET", "\(httpbin)/get", "--session", path])
        #expect(result.status != 0)
        #expect(result.errorOutput.contains("\(path) is not a session file"), "\(result.errorOutput)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"headers\": 3}")  // left as it was
    }

    @Test(arguments: [["--session", ".."], ["--session", "x", "--cookie-jar", "jar"]])
    func misuseIsAUsageError(arguments: [String]) throws {
        let result = try run(["GET", "\(httpbin)/get"] + arguments)
        #expect(result.status == 64, "\(result.errorOutput)")
    }
}
