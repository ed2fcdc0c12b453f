// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --stream` and `--sse` against `satchel serve`'s record endpoints and the
/// fast test server's `/event-source`, which drops connections and logs each `Last-Event-ID`.
@Suite(.hangGuard)
struct RequestStreamTests {
    let server: ServeProcess

    init() throws {
        server = try ServeProcess(tls: false)
    }

    @Test(arguments: [
        ("sse", #"{"event":"message","data":"{\"i\":0}","id":"0"}"#), ("ndjson", #"{"i":0}"#),
        ("json-seq", #"{"i":0}"#),
    ])
    func eachFormatPrintsOneRecordPerLine(format: String, first: String) throws {
        let result = try CommandRunner.run([
            "request", "GET", "\(server.url)/\(format)?count=3&interval_ms=0", "--stream",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first.map(String.init) == first)
        #expect(lines.last?.contains("2") == true)
    }

    /// The first record is printed while the server still holds the second back (30 s away):
    /// the test reads it, sees the command still running, and stops it.
    @Test func aRecordPrintsBeforeTheNextArrives() throws {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["request", "GET", "\(server.url)/ndjson?count=2&interval_ms=30000", "--stream"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        #expect(try CommandRunner.nextLine(of: output) == "{\"i\":0}\n")
        #expect(process.isRunning)
    }

    @Test func sseReconnectsWithTheLastEventIDUntil204() throws {
        let fast = try TestServers.shared().fast
        let key = UUID().uuidString
        let result = try CommandRunner.run([
            "request", "GET", "\(fast.absoluteString)/event-source?key=\(key)&total=5&per=2&retry=10", "--sse",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output.split(separator: "\n").map(String.init)
                == (0..<5).map { "{\"event\":\"message\",\"data\":\"{\\\"i\\\":\($0)}\",\"id\":\"\($0)\"}" })
        let log = try CommandRunner.run(["request", "GET", "\(fast.absoluteString)/event-source-log?key=\(key)"])
        #expect(log.output.filter { !$0.isWhitespace } == #"{"lastEventIDs":["","1","3","4"]}"#)
    }

    @Test func aResponseThatIsNotARecordStreamExits67() throws {
        let result = try CommandRunner.run(["request", "GET", "\(server.url)/json", "--stream"])
        #expect(result.status == 67)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.contains("not a record stream"))
    }

    @Test(arguments: [["--stream", "--raw"], ["--sse", "-o", "x"], ["--stream", "--sse"], ["--sse", "-d"]])
    func streamingExcludesOtherOutputs(options: [String]) throws {
        let result = try CommandRunner.run(["request", "GET", "\(server.url)/sse"] + options)
        #expect(result.status == 64)
    }

    @Test func sseStopsWithExit22OnAnotherStatus() throws {
        let fast = try TestServers.shared().fast
        let key = UUID().uuidString
        let result = try CommandRunner.run([
            "request", "GET", "\(fast.absoluteString)/event-source?key=\(key)&total=1&per=1&retry=1&drop=end&then=500",
            "--sse",
        ])
        #expect(result.status == 22, "\(result.errorOutput)")
        #expect(result.output.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        ("/sse?count=abc", [String]()), ("/ndjson?interval_ms=99999999", []), ("/sse", ["Last-Event-ID:x"]),
    ])
    func badRecordRequestsAreProblems(path: String, items: [String]) throws {
        let result = try CommandRunner.run(["request", "GET", "\(server.url)\(path)"] + items)
        #expect(result.status == 22)
        #expect(result.errorOutput.contains("400"), "\(result.errorOutput)")
    }
}
