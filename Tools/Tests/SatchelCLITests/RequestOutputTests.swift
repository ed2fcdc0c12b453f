// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// What `satchel request` prints and saves: validation, --raw, --output, --download with
/// resume, -v heads, readable printing of XML, images and problem details.
@Suite struct RequestOutputTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    static func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(["request", "--color", "never"] + arguments)
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("satchel-request-\(UUID().uuidString)-\(name)")
            .path
    }

    @Test func unacceptableStatusExits22WithOneLine() throws {
        let result = try Self.run(["GET", "\(servers.httpbin)/status/418"])
        #expect(result.status == 22)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.hasPrefix("satchel: unacceptableStatusCode: \(servers.httpbin)/status/418"))
        #expect(result.errorOutput.filter { $0 == "\n" }.count == 1)
        let anyway = try Self.run(["GET", "\(servers.httpbin)/status/418", "--no-check-status"])
        #expect(anyway.status == 0, "\(anyway.errorOutput)")
        #expect(anyway.output.contains("teapot"))
    }

    @Test func rawPrintsTheBodyAsReceived() throws {
        let result = try Self.run(["GET", "\(servers.httpbin)/bytes/300?seed=7", "--raw"])
        #expect(result.status == 0)
        #expect(result.outputBytes.count == 300)
        let again = try Self.run(["GET", "\(servers.httpbin)/bytes/300?seed=7", "--raw"])
        #expect(again.outputBytes == result.outputBytes)
        let decoded = try Self.run(["GET", "\(servers.httpbin)/bytes/300?seed=7"])
        #expect(decoded.status == 0)
        #expect(decoded.output.contains("300 bytes of application/octet-stream"))
    }

    @Test func outputSavesTheBodyAndAFailureLeavesNoFile() throws {
        let destination = Self.temporaryPath("out.json")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let saved = try Self.run(["GET", "\(servers.httpbin)/json", "--output", destination])
        #expect(saved.status == 0)
        #expect(saved.output.isEmpty)
        let body = try Data(contentsOf: URL(fileURLWithPath: destination))
        #expect((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["slideshow"] != nil)
        try FileManager.default.removeItem(atPath: destination)
        let failed = try Self.run(["GET", "\(servers.httpbin)/status/500", "--output", destination])
        #expect(failed.status == 22)
        let cut = try Self.run(["GET", "\(servers.fast)/large/3000000?cut=1000000", "--output", destination])
        #expect(cut.status == 56, "\(cut.errorOutput)")
        #expect(cut.errorOutput.filter { $0 == "\n" }.count == 1)
        let folder = (destination as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.contains((destination as NSString).lastPathComponent)
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func downloadResumesACutTransferByteExact() throws {
        let destination = Self.temporaryPath("large.bin")
        defer {
            for path in [destination, destination + ".part", destination + ".part.resume"] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        let url = "\(servers.fast)/large/3000000?cut=1200000"
        let first = try Self.run(["GET", url, "--download", "-o", destination])
        #expect(first.status == 56)
        #expect(!FileManager.default.fileExists(atPath: destination))
        let second = try Self.run(["GET", url, "--download", "-o", destination])
        #expect(second.status == 56)
        let third = try Self.run(["GET", url, "--download", "-o", destination])
        #expect(third.status == 0, "\(third.errorOutput)")
        #expect(third.errorOutput == "Saved 3000000 bytes to \(destination) (resumed at 2.3 MiB)\n")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(bytes.count == 3_000_000)
        #expect(bytes.indices.allSatisfy { bytes[$0] == TestServers.largeByte(at: $0) })
    }

    @Test func verbosePrintsBothHeads() throws {
        let result = try Self.run(["POST", "\(servers.httpbin)/post", "-v", "a=1"])
        #expect(result.status == 0)
        let lines = result.output.components(separatedBy: "\n")
        #expect(lines.first == "POST /post HTTP/1.1")
        #expect(lines.contains("Content-Type: application/x-www-form-urlencoded"))
        #expect(lines.contains("HTTP/1.1 200 OK"))
        #expect(result.output.contains("\"form\": {"))
        let headersOnly = try Self.run(["GET", "\(servers.httpbin)/get", "--headers"])
        #expect(headersOnly.output.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(!headersOnly.output.contains("\"args\""))
    }

    @Test func printsXMLIndentedAndImagesSummarised() throws {
        let xml = try Self.run(["GET", "\(servers.httpbin)/xml"])
        #expect(xml.status == 0)
        #expect(xml.output.contains("\n  <slide type=\"all\">\n    <title>Wake up to WonderWidgets!</title>\n"))
        let png = try Self.run(["GET", "\(servers.httpbin)/image/png"])
        #expect(png.output == "PNG image, 100×100, rgb, 8-bit\n")
        let jpeg = try Self.run(["GET", "\(servers.httpbin)/image/jpeg"])
        #expect(jpeg.output.hasPrefix("JPEG image, 239×178, "))
    }

    @Test func colourOnlyWhenAsked() throws {
        let plain = try Self.run(["GET", "\(servers.httpbin)/json"])
        #expect(!plain.output.contains("\u{1B}["))
        let coloured = try CommandRunner.run(["request", "GET", "\(servers.httpbin)/json", "--color", "always"])
        #expect(coloured.output.contains("\u{1B}["))
    }

    @Test func redirectsAreFollowedOrNot() throws {
        let followed = try Self.run(["GET", "\(servers.httpbin)/redirect/2"])
        #expect(followed.status == 0)
        #expect(followed.output.contains("\"url\": \"\(servers.httpbin)/get\""))
        let tooMany = try Self.run(["GET", "\(servers.httpbin)/redirect/3", "--max-redirects", "2"])
        #expect(tooMany.status == 47)
        let notFollowed = try Self.run([
            "GET", "\(servers.httpbin)/redirect/1", "--no-follow", "--headers", "--no-check-status",
        ])
        #expect(notFollowed.status == 0)
        #expect(notFollowed.output.hasPrefix("HTTP/1.1 302 FOUND\n"))
    }

    @Test func retriesResendAfterA503() throws {
        let key = UUID().uuidString
        let once = try Self.run(["GET", "\(servers.fast)/retry?key=\(key)&fail=1&retry_after=0"])
        #expect(once.status == 22)
        let retried = try Self.run(["GET", "\(servers.fast)/retry?key=\(key)-2&fail=1&retry_after=0", "--retries", "1"])
        #expect(retried.status == 0, "\(retried.errorOutput)")
        #expect(retried.output.contains("\"attempt\": 2"))
    }

    @Test func headsGoToStandardErrorWhenTheBodyGoesToAFile() throws {
        let destination = Self.temporaryPath("heads.json")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let result = try Self.run(["GET", "\(servers.httpbin)/json", "-v", "--output", destination])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.hasPrefix("GET /json HTTP/1.1\n"))
        #expect(result.errorOutput.contains("\nHTTP/1.1 200 OK\n"))
    }

    @Test func pinsStillApplyWithInsecure() throws {
        let pinned = try Self.run([
            "GET", "\(servers.expiredTLS)/get", "--insecure", "--pin-sha256", servers.pins.expired,
        ])
        #expect(pinned.status == 0, "\(pinned.errorOutput)")
        let wrongPin = try Self.run([
            "GET", "\(servers.expiredTLS)/get", "--insecure", "--pin-sha256", servers.pins.good,
        ])
        #expect(wrongPin.status == 60, "\(wrongPin.errorOutput)")
    }
}
