// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --http1.1`, `--http2`, `--http2-prior-knowledge` against nginx: the version
/// the response head names.
@Suite(.hangGuard)
struct RequestHTTPVersionTests {
    let nginx: NginxProcess
    let authority: String

    init() throws {
        nginx = try NginxProcess()
        authority = try TestServers.shared().certificates.caA.path
    }

    func firstLine(_ base: URL, _ flags: [String]) throws -> String {
        let result = try CommandRunner.run(
            [
                "request", "GET", base.appendingPathComponent("echo-headers").absoluteString, "--headers",
                "--cacert", authority, "--color", "never",
            ] + flags)
        #expect(result.status == 0, "\(result.errorOutput)")
        return String(result.output.prefix { $0 != "\n" })
    }

    @Test func eachFlagGetsItsVersion() throws {
        #expect(try firstLine(nginx.tls, []) == "HTTP/2 200")
        #expect(try firstLine(nginx.tls, ["--http2"]) == "HTTP/2 200")
        #expect(try firstLine(nginx.tls, ["--http1.1"]) == "HTTP/1.1 200 OK")
        #expect(try firstLine(nginx.h2c, ["--http2-prior-knowledge"]) == "HTTP/2 200")
        let both = try CommandRunner.run(["request", "GET", nginx.plain.absoluteString, "--http1.1", "--http2"])
        #expect(both.status == 64)
    }
}
