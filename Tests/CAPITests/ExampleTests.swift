// SPDX-License-Identifier: Apache-2.0
import CAPI
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// Examples/c and Examples/python, built and run the way their comments say, plus the C plugin
/// used from Swift.
@Suite(.hangGuard)
struct ExampleTests {
    /// A JSON, an XML, the PNG, a multipart/mixed batch and a CSV file.
    static func payloads() throws -> (directory: URL, files: [String: URL]) {
        let directory = try CLibrary.temporaryDirectory()
        var files: [String: URL] = [:]
        let contents: [(String, String)] = [
            ("data.json", #"{"name":"Ann","ids":[1,18446744073709551615]}"#),
            ("feed.xml", #"<feed><title lang="en">News</title></feed>"#),
            (
                "batch.mixed",
                "--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 201 Created\r\nContent-Type: application/json\r\n\r\n{\"id\":7}\r\n--b\r\nContent-Type: text/csv\r\n\r\nx,y\n1,2\n\r\n--b--\r\n"
            ),
            ("rows.csv", "name,city\r\nAnn,\"Oslo, NO\"\r\n"),
        ]
        for (name, text) in contents {
            let url = directory.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            files[name] = url
        }
        files["tiny.png"] = try CLibrary.tinyPNG()
        return (directory, files)
    }

    static func buildExample(_ name: String) async throws -> URL {
        let program = try CLibrary.temporaryDirectory().appendingPathComponent(name)
        try await CLibrary.compile(
            [CLibrary.root.appendingPathComponent("Examples/c/\(name).c")], compiler: "gcc", flags: ["-std=c99"],
            output: program)
        return program
    }

    @Test func decodeExamplePrintsEachFormat() async throws {
        let (_, files) = try Self.payloads()
        let program = try await Self.buildExample("decode")
        let result = try await Command.run(
            program.path,
            [
                "application/json", files["data.json"]!.path, "application/xml", files["feed.xml"]!.path,
                "image/png", files["tiny.png"]!.path, "multipart/mixed; boundary=b", files["batch.mixed"]!.path,
            ], environment: ["SATCHEL_PLUGIN": try CLibrary.csvPlugin().path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains(#"{"name":"Ann","ids":[1,18446744073709551615]}"#))
        #expect(result.output.contains(#""attributes":{"lang":"en"},"children":["News"]"#))
        #expect(result.output.contains("image: png 3x2, 4 channels of 8 bits, stored as rgba, orientation 1"))
        #expect(result.output.contains("multipart: 2 parts"))
        #expect(result.output.contains("embedded HTTP response 201"))
        #expect(result.output.contains(#"  {"id":7}"#))
        // The plugin decodes the text/csv part of the batch.
        #expect(result.output.contains(#"  [{"x":"1","y":"2"}]"#))
    }

    @Test func decodeExampleReportsBadInput() async throws {
        let (directory, files) = try Self.payloads()
        let program = try await Self.buildExample("decode")
        let truncated = directory.appendingPathComponent("truncated.png")
        try Data(try Data(contentsOf: files["tiny.png"]!).prefix(40)).write(to: truncated)
        let result = try await Command.run(program.path, ["image/png", truncated.path])
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("truncated"))
        let missing = try await Command.run(
            program.path, ["text/csv", files["rows.csv"]!.path], environment: ["SATCHEL_PLUGIN": "/nonexistent.so"])
        #expect(missing.status == 1)
        #expect(missing.errorOutput.contains("cannot load /nonexistent.so"))
    }

    @Test func uploadExampleStreamsFilesToSatchelServeWithProgress() async throws {
        let server = try ServeProcess()
        defer { withExtendedLifetime(server) {} }
        let (directory, files) = try Self.payloads()
        let big = directory.appendingPathComponent("big.bin")
        try Data((0..<300_000).map { UInt8($0 % 251) }).write(to: big)
        let program = try await Self.buildExample("upload")
        let result = try await Command.run(program.path, ["\(server.url)/echo", files["rows.csv"]!.path, big.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("HTTP 200"))
        #expect(result.errorOutput.contains("of 300"))  // progress with the total
        // satchel serve parsed the parts with Satchel's multipart parser and echoed them.
        #expect(result.output.contains(#""value": "uploaded by Examples/c/upload.c""#))
        #expect(result.output.contains(#""filename": "rows.csv""#))
        #expect(result.output.contains(#""size": 300000"#))
        let unreachable = try await Command.run(program.path, ["http://127.0.0.1:1/post", files["rows.csv"]!.path])
        #expect(unreachable.status == 1)
        #expect(unreachable.errorOutput.contains("SATCHEL_E_CANNOT_CONNECT"))
    }

    /// Examples/c/records.c: a record stream from `satchel serve` through the record callback,
    /// and standard input through a reader — each record printed while the stream is still open.
    @Test func recordsExamplePrintsEachRecordAsItArrives() async throws {
        let server = try ServeProcess()
        defer { withExtendedLifetime(server) {} }
        let program = try await Self.buildExample("records")
        let events = try await Command.run(program.path, ["\(server.url)/sse?count=3&interval_ms=20"])
        #expect(events.status == 0, "\(events.errorOutput)")
        #expect(
            events.output
                == (0..<3).map { #"{"event":"message","data":"{\"i\":\#($0)}","id":"\#($0)"}"# + "\n" }
                .joined())
        #expect(events.errorOutput.contains("HTTP 200, 3 records"))
        let notRecords = try await Command.run(program.path, ["\(server.url)/json"])
        #expect(notRecords.status == 1)
        #expect(notRecords.errorOutput.contains("SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE"))

        // Standard input, one record per write, read back before the next is written.
        let process = Process()
        process.executableURL = program
        process.arguments = ["-", "application/x-ndjson"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        for index in 0..<3 {
            input.fileHandleForWriting.write(Data("{\"n\":\(index)}\n".utf8))
            var line: [UInt8] = []
            while line.last != 0x0A {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                try #require(!byte.isEmpty, "the output ended before record \(index)")
                line += byte
            }
            #expect(String(decoding: line, as: UTF8.self) == "{\"n\":\(index)}\n")
        }
        input.fileHandleForWriting.write(Data("{oops}\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("line 4"), "\(message)")
    }

    /// Examples/c/authenticated.c: a bearer token from a command, fetched before the first
    /// request, a 401 refreshing it, a command that fails, and a cookie jar kept between runs.
    @Test func authenticatedExampleRefreshesItsTokenAndKeepsCookies() async throws {
        let servers = try TestServers.shared()
        let program = try await Self.buildExample("authenticated")
        let (url, command) = Self.tokenExample(servers)
        let first = try await Command.run(program.path, [url, command])
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(first.output.contains("\"token\": \"tok-"), "\(first.output)")
        #expect(first.errorOutput.contains("HTTP 200, 1 token refresh(es)"), "\(first.errorOutput)")

        let failing = try await Command.run(program.path, [url, "exit 3"])
        #expect(failing.status == 1)
        #expect(
            failing.errorOutput.contains("the token refresh callback failed (it returned 2)"), "\(failing.errorOutput)")

        let jar = CLibrary.root.appendingPathComponent(".build/example-jar-\(UUID().uuidString)").path
        defer { unlink(jar) }
        let cookies = servers.fast.appendingPathComponent("set-cookies").absoluteString + "?count=3"
        let setting = try await Command.run(program.path, [cookies, "echo any-token", jar])
        #expect(setting.errorOutput.contains("3 cookie(s)"), "\(setting.errorOutput)")
        let reading = try await Command.run(program.path, [url, command, jar])
        #expect(reading.errorOutput.contains("HTTP 200, 1 token refresh(es), 3 cookie(s)"), "\(reading.errorOutput)")
    }

    /// The fast server's protected URL for a fresh key, and a shell command printing the key's
    /// next token.
    static func tokenExample(_ servers: TestServers) -> (url: String, command: String) {
        let key = UUID().uuidString
        let token = servers.fast.appendingPathComponent("token").absoluteString + "?key=\(key)"
        let python = VenvPython.executable.path
        return (
            servers.fast.appendingPathComponent("protected").absoluteString + "?key=\(key)",
            "\(python) -c \"import json,sys,urllib.request; print(json.load(urllib.request.urlopen(sys.argv[1]))['token'])\" '\(token)'"
        )
    }

    @Test func examplesAreCleanUnderValgrind() async throws {
        let servers = try TestServers.shared()
        let (_, files) = try Self.payloads()
        for (program, arguments) in [
            (
                try await Self.buildExample("decode"),
                ["application/xml", files["feed.xml"]!.path, "image/png", files["tiny.png"]!.path]
            ),
            (
                try await Self.buildExample("upload"),
                [servers.httpbin.appendingPathComponent("post").absoluteString, files["rows.csv"]!.path]
            ),
            (
                try await Self.buildExample("records"),
                [servers.fast.appendingPathComponent("records/multipart").absoluteString + "?count=3"]
            ),
            (
                try await Self.buildExample("authenticated"),
                {
                    let (url, command) = Self.tokenExample(servers); return [url, command]
                }()
            ),
        ] {
            let result = try await Command.run(
                "/usr/bin/valgrind",
                CLibrary.valgrindArguments(suppressions: try CLibrary.suppressions()) + [program.path] + arguments,
                environment: ["SATCHEL_PLUGIN": try CLibrary.csvPlugin().path])
            #expect(result.status == 0, "\(program.lastPathComponent): \(result.errorOutput.suffix(3000))")
        }
    }

    @Test func examplesAreCleanUnderAddressSanitizer() async throws {
        let servers = try TestServers.shared()
        let (_, files) = try Self.payloads()
        for (name, arguments) in [
            (
                "decode",
                ["application/xml", files["feed.xml"]!.path, "multipart/mixed; boundary=b", files["batch.mixed"]!.path]
            ),
            ("upload", [servers.httpbin.appendingPathComponent("post").absoluteString, files["rows.csv"]!.path]),
            (
                "authenticated",
                {
                    let (url, command) = Self.tokenExample(servers); return [url, command]
                }()
            ),
        ] {
            let program = try CLibrary.temporaryDirectory().appendingPathComponent(name)
            try await CLibrary.compile(
                [CLibrary.root.appendingPathComponent("Examples/c/\(name).c")], compiler: "gcc",
                flags: ["-std=c99", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer"], output: program)
            let result = try await Command.run(
                program.path, arguments,
                environment: [
                    "ASAN_OPTIONS": "detect_leaks=1:fast_unwind_on_malloc=0",
                    "SATCHEL_PLUGIN": try CLibrary.csvPlugin().path,
                ])
            #expect(result.status == 0, "\(name): \(result.errorOutput.suffix(3000))")
            #expect(!result.errorOutput.contains("Sanitizer"), "\(name): \(result.errorOutput.suffix(3000))")
        }
    }

    @Test func pythonExamplesUseTheLibraryThroughCtypes() async throws {
        let server = try ServeProcess()
        defer { withExtendedLifetime(server) {} }
        let (_, files) = try Self.payloads()
        let library = try CLibrary.prefix().appendingPathComponent("lib/libsatchel.so.0").path
        let examples = CLibrary.root.appendingPathComponent("Examples/python")
        let decode = try await Command.run(
            VenvPython.executable.path,
            [
                examples.appendingPathComponent("decode.py").path, "application/json", files["data.json"]!.path,
                "-", files["tiny.png"]!.path,
            ], environment: ["SATCHEL_LIBRARY": library])
        #expect(decode.status == 0, "\(decode.errorOutput)")
        #expect(decode.output.contains(#"{"name":"Ann","ids":[1,18446744073709551615]}"#))
        #expect(decode.output.contains(#"{"$image":{"format":"png","width":3,"height":2"#))
        let bad = try await Command.run(
            VenvPython.executable.path,
            [
                examples.appendingPathComponent("decode.py").path, "application/json", files["feed.xml"]!.path,
            ], environment: ["SATCHEL_LIBRARY": library])
        #expect(bad.status == 1)
        #expect(bad.errorOutput.contains("SATCHEL_E_SYNTAX"))
        let upload = try await Command.run(
            VenvPython.executable.path,
            [
                examples.appendingPathComponent("upload.py").path, "\(server.url)/echo",
                files["rows.csv"]!.path,
            ], environment: ["SATCHEL_LIBRARY": library])
        #expect(upload.status == 0, "\(upload.errorOutput)")
        #expect(upload.output.contains(#""value": "name,city\r\nAnn,\"Oslo, NO\"\r\n""#))
        #expect(upload.output.contains(#""value": "uploaded by Examples/python/upload.py""#))
        #expect(upload.errorOutput.contains("HTTP 200"))
    }

    @Test func pkgConfigBuildsAClientAfterTheInstallStep() async throws {
        let directory = try CLibrary.temporaryDirectory()
        let source = directory.appendingPathComponent("app.c")
        try """
        #include <satchel.h>
        #include <stdio.h>
        int main(void) {
            satchel_value *value = NULL;
            char *json = NULL;
            if (satchel_value_parse_json(&value, "[1, 2]", SATCHEL_NTS) != SATCHEL_OK) return 1;
            if (satchel_value_to_json(&json, NULL, value, 0) != SATCHEL_OK) return 2;
            printf("%s %d %d %s\\n", satchel_version(), satchel_version_number(), SATCHEL_VERSION_NUMBER, json);
            satchel_free(json);
            satchel_value_free(value);
            return 0;
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let program = directory.appendingPathComponent("app")
        let compile = try await Command.run(
            "/bin/sh", ["-c", "cc \(source.path) $(pkg-config --cflags --libs satchel) -o \(program.path)"],
            environment: ["PKG_CONFIG_PATH": try CLibrary.prefix().appendingPathComponent("lib/pkgconfig").path])
        #expect(compile.status == 0, "\(compile.errorOutput)")
        let run = try await Command.run(program.path, [])
        // The library, the header and satchel.pc all say the project's version (VERSION).
        let version = try String(contentsOf: CLibrary.root.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let number = version.split(separator: ".").compactMap { Int($0) }.reduce(0) { $0 * 1000 + $1 }
        #expect(run.output == "\(version) \(number) \(number) [1,2]\n")
        let modversion = try await Command.run(
            "/usr/bin/pkg-config", ["--modversion", "satchel"],
            environment: ["PKG_CONFIG_PATH": try CLibrary.prefix().appendingPathComponent("lib/pkgconfig").path])
        #expect(modversion.output == "\(version)\n")
    }

    @Test func cPluginWorksFromSwift() async throws {
        let registry = Registry.standard()
        try registry.loadPlugin(at: try CLibrary.csvPlugin().path)
        let rows = try registry.decode(
            Array("name,city\r\nAnn,\"Oslo, NO\"\r\n".utf8), contentType: MediaType(parsing: "text/csv"))
        #expect(rows == .array([.object(["name": "Ann", "city": "Oslo, NO"])]))
        let (body, contentType) = try registry.encode(rows!, as: MediaType(parsing: "text/csv"))
        #expect(String(decoding: body, as: UTF8.self) == "name,city\r\nAnn,\"Oslo, NO\"\r\n")
        #expect(contentType.essence == "text/csv")
        #expect(throws: SatchelError.self) {
            try registry.decode(Array("a,b\n1,2,3\n".utf8), contentType: MediaType(parsing: "text/csv"))
        }
        let error = #expect(throws: SatchelError.self) { try registry.loadPlugin(at: "/nonexistent/plugin.so") }
        #expect(error?.code.rawValue == 25)
    }
}
