// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel decode --each` and `satchel request --each`: the elements of one large JSON or XML
/// document, one compact canonical JSON per line as each completes.
@Suite(.hangGuard)
struct ElementStreamCLITests {
    @Test func jsonElementsPrintOnePerLine() throws {
        let page = #"{"data":{"total":2,"items":[{"id":1,"tags":["a"]},{"id":2,"tags":[]}]},"next":"c"}"#
        let result = try CommandRunner.run(
            ["decode", "-c", "application/json", "--each", "/data/items"], input: Array(page.utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == "{\"id\":1,\"tags\":[\"a\"]}\n{\"id\":2,\"tags\":[]}\n")
        let top = try CommandRunner.run(["decode", "--each", ""], input: Array("[1, \"two\", null]".utf8))
        #expect(top.output == "1\n\"two\"\nnull\n" && top.status == 0)
    }

    @Test func aMalformedDocumentPrintsTheElementsBeforeTheErrorThenExits65() throws {
        let result = try CommandRunner.run(["decode", "--each", ""], input: Array("[1,2,{\"a\":}]".utf8))
        #expect(result.status == 65)
        #expect(result.output == "1\n2\n")
        #expect(result.errorOutput.contains("/2") && result.errorOutput.contains("byte"))
        let nothing = try CommandRunner.run(["decode", "--each", "/items"], input: Array("{\"data\":[]}".utf8))
        #expect(nothing.status == 65 && nothing.errorOutput.contains("matches nothing"))
        let notAnArray = try CommandRunner.run(["decode", "--each", "/data"], input: Array("{\"data\":{}}".utf8))
        #expect(notAnArray.status == 65 && notAnArray.errorOutput.contains("not an array"))
        let plain = try CommandRunner.run(["decode", "-c", "text/plain", "--each", ""], input: Array("[1]".utf8))
        #expect(plain.status == 67)
    }

    @Test func xmlElementsPrintAsTheirCanonicalObjects() throws {
        let feed =
            #"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:m="urn:m"><entry><t>1</t></entry><m:entry/><entry><t>2</t></entry></feed>"#
        let atom = try CommandRunner.run(
            [
                "decode", "-c", "application/atom+xml", "--each", "/a:feed/a:entry", "--namespace",
                "a=http://www.w3.org/2005/Atom",
            ],
            input: Array(feed.utf8))
        #expect(atom.status == 0, "\(atom.errorOutput)")
        let lines = atom.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"name":"entry","namespace":"http://www.w3.org/2005/Atom""#) == true)
        let any = try CommandRunner.run(
            ["decode", "-c", "application/xml", "--each", "//entry"], input: Array(feed.utf8))
        #expect(any.output.split(separator: "\n").count == 3)
        let unknown = try CommandRunner.run(
            ["decode", "-c", "application/xml", "--each", "/x:feed"], input: Array(feed.utf8))
        #expect(unknown.status == 65 && unknown.errorOutput.contains("namespace map"))
    }

    /// An element is printed while standard input is still open: the test reads it before it
    /// writes the next one.
    @Test func elementsPrintBeforeTheInputEnds() throws {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["decode", "--each", "/items"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        input.fileHandleForWriting.write(Data(#"{"items":["#.utf8))
        for index in 0..<3 {
            input.fileHandleForWriting.write(Data(((index == 0 ? "" : ",") + "{\"i\":\(index)}").utf8))
            #expect(try CommandRunner.nextLine(of: output) == "{\"i\":\(index)}\n")
        }
        input.fileHandleForWriting.write(Data("]}".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// 200 000 elements (about 9 MB) in constant memory: printed, never kept.
    @Test func twoHundredThousandElementsInLittleMemory() throws {
        var body = #"{"items":["#
        body.reserveCapacity(10_000_000)
        for index in 0..<200_000 {
            body += (index == 0 ? "" : ",") + "{\"index\":\(index),\"name\":\"element \(index)\"}"
        }
        body += "]}"
        let path = try CommandRunner.temporaryFile(body)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let peak = try CommandRunner.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: peak) }
        let result = try CommandRunner.run(
            ["-f", "%M", "-o", peak, CommandRunner.executable.path, "decode", "--each", "/items", path],
            executable: URL(fileURLWithPath: "/usr/bin/time"))
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 200_000 && lines.last == "{\"index\":199999,\"name\":\"element 199999\"}")
        let kilobytes =
            Int(
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: peak)), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        if getenv("SATCHEL_SANITIZER") == nil {
            #expect(kilobytes < 64 * 1024, "peak resident memory \(kilobytes) KB")
        }
    }

    @Test(arguments: [("json-page", "/data/items", #"{"i":0}"#), ("atom", "/feed/entry", #"{"name":"entry""#)])
    func requestEachPrintsTheResponsesElements(format: String, path: String, first: String) throws {
        let fast = try TestServers.shared().fast.absoluteString
        let result = try CommandRunner.run(["request", "GET", "\(fast)/records/\(format)?count=3", "--each", path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 3 && lines.first?.hasPrefix(first) == true)
        let both = try CommandRunner.run(["request", "GET", "\(fast)/records/\(format)", "--each", path, "--stream"])
        #expect(both.status == 64)
    }

    /// The first element is printed while the server holds the second back behind a gate that
    /// only the test opens.
    @Test func requestEachPrintsAnElementBeforeTheNextArrives() throws {
        let fast = try TestServers.shared().fast.absoluteString
        let gate = UUID().uuidString
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = [
            "request", "GET", "\(fast)/records/json-page?count=2&gate=\(gate)", "--each", "/data/items",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        #expect(try CommandRunner.nextLine(of: output) == "{\"i\":0}\n")
        #expect(process.isRunning)
        _ = try CommandRunner.run(["request", "GET", "\(fast)/gate?key=\(gate)&i=0"])
        #expect(try CommandRunner.nextLine(of: output) == "{\"i\":1}\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
