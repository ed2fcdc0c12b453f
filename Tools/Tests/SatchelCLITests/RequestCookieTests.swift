// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --cookie-jar FILE` and `--no-cookies`, against httpbin's cookie endpoints.
@Suite(.hangGuard)
struct RequestCookieTests {
    let httpbin: String

    init() throws {
        httpbin = try TestServers.shared().httpbin.absoluteString.trimmingCharacters(in: ["/"])
    }

    @Test func aJarCarriesCookiesFromOneRunToTheNext() throws {
        let jar = FileManager.default.temporaryDirectory.appendingPathComponent("jar-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: jar) }
        let first = try CommandRunner.run(["request", "GET", "\(httpbin)/cookies/set?flavour=oat", "--cookie-jar", jar])
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(try String(contentsOfFile: jar, encoding: .utf8).contains("\tflavour\toat"))
        let attributes = try FileManager.default.attributesOfItem(atPath: jar)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let second = try CommandRunner.run([
            "request", "GET", "\(httpbin)/cookies", "--cookie-jar", jar, "--color", "never",
        ])
        #expect(second.status == 0, "\(second.errorOutput)")
        #expect(second.output.contains("\"flavour\": \"oat\""))
    }

    @Test func noCookiesNeitherKeepsNorSends() throws {
        let result = try CommandRunner.run([
            "request", "GET", "\(httpbin)/cookies/set?flavour=oat", "--no-cookies", "--color", "never",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(!result.output.contains("flavour"))
    }

    @Test func anUnwritableJarIsAWarning() throws {
        let result = try CommandRunner.run([
            "request", "GET", "\(httpbin)/cookies/set?a=1", "--cookie-jar", "/nonexistent-dir/jar", "--color", "never",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("satchel: warning: cannot write the cookie file /nonexistent-dir/jar"))
    }

    @Test func aJarAndNoCookiesExcludeEachOther() throws {
        let result = try CommandRunner.run(["request", "GET", "\(httpbin)/get", "--cookie-jar", "x", "--no-cookies"])
        #expect(result.status == 64)
    }
}
