// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request` against `satchel serve` (both the built binary): the client's items reach
/// the server's parsers, and the server's formats come back decoded and printed.
@Suite(.hangGuard)
struct RequestServeTests {
    /// A server for each test (swift-testing makes a suite instance per test).
    let server: ServeProcess

    init() throws {
        server = try ServeProcess(tls: true)
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(
            ["request"] + arguments + ["--cacert", server.certificateAuthority ?? "", "--pin-sha256", server.pin ?? ""])
    }

    @Test func itemsReachTheServersParsers() throws {
        let url = server.url
        let file = try CommandRunner.temporaryFile("name,city\nAnn,Oslo\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try run(["POST", "\(url)/echo", "note=hi", "csv@\(file);type=text/csv", "X-Trace:abc", "page==2"])
        #expect(result.status == 0, "\(result.errorOutput)")
        let echo = try JSONSerialization.jsonObject(with: Data(result.outputBytes)) as? [String: Any]
        #expect(echo?["method"] as? String == "POST")
        #expect((echo?["query"] as? [String: Any])?["page"] as? String == "2")
        let parts = (echo?["body"] as? [String: Any])?["$multipart"] as? [[String: Any]]
        #expect(parts?.count == 2)
        #expect(parts?.first?["value"] as? String == "hi")
        #expect(parts?.last?["contentType"] as? String == "text/csv")
        #expect(parts?.last?["size"] as? Int == 19)
        let headers = echo?["headers"] as? [[String]]
        #expect(headers?.contains(["X-Trace", "abc"]) == true)
    }

    @Test func formatsComeBackDecoded() throws {
        let url = server.url
        let png = try run(["GET", "\(url)/png"])
        #expect(png.status == 0, "\(png.errorOutput)")
        #expect(png.output.contains("PNG image, 64×48"), "\(png.output)")
        let plist = try run(["GET", "\(url)/plist-binary"])
        #expect(plist.status == 0)
        #expect(plist.output.contains("\"greeting\": \"Grüße, 世界\""))
        let heads = try run(["GET", "\(url)/json", "-v"])
        #expect(heads.output.contains("200 OK"), "\(heads.output)")
    }

    @Test func statusesAndDownloadsBehaveLikeCurl() throws {
        let url = server.url
        let teapot = try run(["GET", "\(url)/status/418"])
        #expect(teapot.status == 22)
        #expect(teapot.output.isEmpty)
        #expect(teapot.errorOutput.split(separator: "\n").count == 1)
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let download = try run(["GET", "\(url)/bytes/3000000", "-d", "-o", destination, "-q"])
        #expect(download.status == 0, "\(download.errorOutput)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: destination))
        #expect(bytes.count == 3_000_000 && bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        let wrongPin = try CommandRunner.run([
            "request", "GET", "\(url)/json", "--cacert", server.certificateAuthority ?? "",
            "--pin-sha256", "sha256//" + String(repeating: "A", count: 43) + "=",
        ])
        #expect(wrongPin.status == 60)
    }
}
