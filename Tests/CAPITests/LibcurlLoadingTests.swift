// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// libsatchel.so.0 loads libcurl at the first session (Sources/CAPI/libcurl-loader.c): a
/// program that only decodes never maps it, a GET works as before, and a missing libcurl is a
/// precise error from `satchel_session_create`, not a crash.
@Suite(.hangGuard)
struct LibcurlLoadingTests {
    static let source = CLibrary.root.appendingPathComponent("Tests/CAPITests/c/libcurl_loading.c")

    static func program() async throws -> URL {
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("libcurl_loading")
        try await CLibrary.compile([source], compiler: "gcc", flags: ["-std=c99"], output: program)
        return program
    }

    @Test func libcurlIsNotALibraryTheLinkerLoads() async throws {
        let library = try CLibrary.prefix().appendingPathComponent("lib/libsatchel.so.0")
        let result = try await Command.run("/usr/bin/readelf", ["-d", library.path])
        #expect(result.status == 0)
        let needed = result.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libjson-c") }, "\(needed)")
        #expect(!needed.contains { $0.contains("libcurl") }, "\(needed)")
    }

    @Test func libcurlIsLoadedAtTheFirstSession() async throws {
        let url = try TestServers.shared().fast.appendingPathComponent("retry-count").absoluteString
        let result = try await Command.run(try Self.program().path, [url])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("ok: libcurl is mapped after the GET"))
        #expect(result.output.hasSuffix("0 failed\n"))
    }

    @Test(arguments: ["/nonexistent/libcurl.so.4", "libz.so.1"])
    func aMissingLibcurlIsAnErrorOfTheSession(libcurl: String) async throws {
        let url = try TestServers.shared().fast.appendingPathComponent("retry-count").absoluteString
        let result = try await Command.run(
            try Self.program().path, [url, libcurl], environment: ["SATCHEL_LIBCURL": libcurl])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("message: SATCHEL_E_INTERNAL: libcurl could not be initialised: \(libcurl)"))
        #expect(result.output.hasSuffix("0 failed\n"))
    }
}
