// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel serve --unix PATH` and `satchel request --unix-socket PATH`.
@Suite(.hangGuard)
struct RequestUnixSocketTests {
    @Test func aRequestGoesThroughTheSocket() throws {
        let server = try ServeProcess(unixSocket: true)
        let path = try #require(server.unixSocketPath)
        let result = try CommandRunner.run([
            "request", "GET", "http://localhost/echo", "q==1", "--unix-socket", path, "--color", "never",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("\"path\": \"/echo\""), "\(result.output)")
        let missing = try CommandRunner.run(["request", "GET", "http://localhost/json", "--unix-socket", path + ".x"])
        #expect(missing.status == 7, "\(missing.errorOutput)")
        #expect(missing.errorOutput.contains("through the unix socket \(path).x"))
    }

    /// A socket left by a server that is gone is replaced; a regular file in the way is not.
    @Test func serveReplacesAStaleSocketButNotAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-\(UUID().uuidString)").path
        defer { unlink(path) }
        try Data("not a socket".utf8).write(to: URL(fileURLWithPath: path))
        let result = try CommandRunner.run(["serve", "--unix", path])
        #expect(result.status == 71)
        #expect(result.errorOutput.contains("cannot listen on unix:\(path): the path exists and is not a socket"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not a socket")
    }
}
