// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// Tests/CAPITests/c/abi_test.c: every function with its statuses and outputs, built as C and
/// as C++ with gcc and clang, and run under valgrind and AddressSanitizer.
@Suite(.hangGuard)
struct ABIProgramTests {
    static let source = CLibrary.root.appendingPathComponent("Tests/CAPITests/c/abi_test.c")

    /// The program's arguments: the PNG, the plugin, httpbin over HTTP and over TLS (with the
    /// test CA, the leaf's pin and another key's pin), and the fast test server.
    static func arguments() throws -> [String] {
        let servers = try TestServers.shared()
        return [
            try CLibrary.tinyPNG().path, try CLibrary.csvPlugin().path,
            servers.httpbin.absoluteString.trimmingSuffix("/"), servers.httpbinTLS.absoluteString.trimmingSuffix("/"),
            servers.certificates.caA.path, "sha256//" + servers.pins.good, "sha256//" + servers.pins.caB,
            servers.fast.absoluteString.trimmingSuffix("/"), try ProxyProcess.shared().http,
            try ProxyProcess.shared().socks, servers.fastMutualTLS.absoluteString.trimmingSuffix("/"),
            servers.directory.path, servers.clientKeyPassphrase,
            try NginxProcess.shared().tls.absoluteString, try NginxProcess.shared().h2c.absoluteString,
            try NginxProcess.shared().unixSocket,
        ]
    }

    @Test(arguments: [("gcc", "-std=c99"), ("clang", "-std=c11"), ("g++", "-std=c++11"), ("clang++", "-std=c++20")])
    func programPasses(compiler: String, standard: String) async throws {
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("abi_test")
        try await CLibrary.compile([Self.source], compiler: compiler, flags: [standard], output: program)
        let result = try await Command.run(program.path, try Self.arguments())
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains(" 0 failed"))
    }

    /// A reachability monitor in a new network namespace, whose loopback link starts down, hears
    /// the link come up (`abi_test --reachability-change`; root, as in CI).
    @Test func reachabilityMonitorHearsALinkComeUp() async throws {
        try #require(getuid() == 0, "a network namespace of its own needs root, as in CI")
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("abi_test")
        try await CLibrary.compile([Self.source], compiler: "gcc", flags: ["-std=c99"], output: program)
        let result = try await Command.run("/usr/bin/unshare", ["--net", program.path, "--reachability-change"])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains(" 0 failed"))
    }

    @Test func programIsCleanUnderValgrind() async throws {
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("abi_test")
        try await CLibrary.compile([Self.source], compiler: "gcc", flags: ["-std=c99", "-g"], output: program)
        // As a C programmer runs valgrind: every leak kind it counts by default, and only the
        // suppression file libsatchel-dev installs (for the Swift runtime's own caches and
        // threads), here from the source tree: the program does not wait for the install, and
        // ExampleTests use the installed copy.
        let result = try await Command.run(
            "/usr/bin/valgrind",
            CLibrary.valgrindArguments(suppressions: CLibrary.sourceSuppressions) + [program.path]
                + (try Self.arguments()))
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput.suffix(4000))")
        #expect(result.errorOutput.contains("ERROR SUMMARY: 0 errors"))
        #expect(result.output.contains(" 0 failed"))
    }

    @Test func programIsCleanUnderAddressSanitizer() async throws {
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("abi_test")
        try await CLibrary.compile(
            [Self.source], compiler: "gcc",
            flags: ["-std=c99", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer"],
            output: program)
        let result = try await Command.run(
            program.path, try Self.arguments(), environment: ["ASAN_OPTIONS": "detect_leaks=1:fast_unwind_on_malloc=0"])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput.suffix(4000))")
        #expect(!result.errorOutput.contains("ERROR: AddressSanitizer"))
        #expect(!result.errorOutput.contains("runtime error"))
    }
}

extension String {
    /// The string without `suffix` at its end.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
