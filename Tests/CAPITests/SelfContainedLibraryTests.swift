// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// The installed libsatchel.so.0 carries its Swift runtime (scripts/install-c-library links it
/// statically, its symbols hidden): it needs only the C libraries it wraps, runs where the
/// toolchain is not, and lives beside a Swift program's own runtime.
@Suite(.hangGuard)
struct SelfContainedLibraryTests {
    static var library: URL {
        get throws { try CLibrary.prefix().appendingPathComponent("lib/libsatchel.so.0") }
    }

    /// The toolchain's `usr` folder, which holds the Swift runtime's shared objects.
    static let toolchain: String = {
        let swift = ProcessInfo.processInfo.environment["PATH"].flatMap { path in
            path.split(separator: ":").map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        return URL(fileURLWithPath: swift ?? "/usr/bin/swift").resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()

    @Test func needsNoSwiftLibraryAndNoRunPath() async throws {
        let result = try await Command.run("/usr/bin/readelf", ["-d", try Self.library.path])
        #expect(result.status == 0)
        let needed = result.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.count >= 5)
        for line in needed {
            #expect(!line.contains("swift") && !line.contains("Foundation") && !line.contains("dispatch"), "\(line)")
            #expect(!line.contains("BlocksRuntime") && !line.contains("icu"), "\(line)")
        }
        #expect(!result.output.contains("RUNPATH") && !result.output.contains("RPATH"))
        // Exports: the header's functions and nothing of the runtime inside.
        let symbols = try await Command.run("/usr/bin/nm", ["-D", "--defined-only", try Self.library.path])
        let exported = symbols.output.split(separator: "\n").filter { $0.split(separator: " ").count == 3 }
            .filter { " TDRBVW".contains($0.split(separator: " ")[1]) }
        #expect(!exported.isEmpty)
        #expect(exported.allSatisfy { $0.hasSuffix("satchel_version") || $0.contains(" satchel_") }, "\(exported)")
        let pc = try String(
            contentsOf: try CLibrary.prefix().appendingPathComponent("lib/pkgconfig/satchel.pc"), encoding: .utf8)
        #expect(!pc.contains(Self.toolchain) && !pc.contains("swift/linux"))
        // Static linking flags: the wrapped C libraries, through Requires.private.
        let flags = try await Command.run(
            "/usr/bin/pkg-config", ["--libs", "--static", "satchel"],
            environment: ["PKG_CONFIG_PATH": try CLibrary.prefix().appendingPathComponent("lib/pkgconfig").path])
        #expect(flags.status == 0, "\(flags.errorOutput)")
        for library in ["-lsatchel", "-lcurl", "-ljson-c", "-lxml2", "-lpng16", "-ljpeg", "-lstdc++"] {
            #expect(flags.output.split(separator: " ").contains { $0 == library }, "\(library) in \(flags.output)")
        }
        #expect(!flags.output.contains("swift"))
    }

    /// The C ABI test program and the decode example, run in a mount namespace where the
    /// toolchain's folder is an empty tmpfs (so no Swift runtime can be found), as root.
    @Test func runsWithTheToolchainHidden() async throws {
        try #require(getuid() == 0, "hiding the toolchain needs root (unshare --mount), as in CI")
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("abi_test")
        try await CLibrary.compile([ABIProgramTests.source], compiler: "gcc", flags: ["-std=c99"], output: program)
        let hidden = try await Self.runHidingTheToolchain(program.path, try ABIProgramTests.arguments())
        #expect(hidden.status == 0, "\(hidden.output.suffix(2000))\n\(hidden.errorOutput.suffix(2000))")
        #expect(hidden.output.contains(" 0 failed"))

        let (_, files) = try ExampleTests.payloads()
        let decode = try await ExampleTests.buildExample("decode")
        let example = try await Self.runHidingTheToolchain(
            decode.path, ["application/json", files["data.json"]!.path, "image/png", files["tiny.png"]!.path])
        #expect(example.status == 0, "\(example.errorOutput)")
        #expect(example.output.contains(#"{"name":"Ann","ids":[1,18446744073709551615]}"#))
        #expect(example.output.contains("image: png 3x2"))
    }

    /// Runs `executable` in a mount namespace where the toolchain's folder is an empty tmpfs, so
    /// that no Swift runtime can be found (needs root).
    static func runHidingTheToolchain(_ executable: String, _ arguments: [String]) async throws -> Command.Result {
        let runtime = "\(toolchain)/lib/swift/linux/libswiftCore.so"
        try #require(
            FileManager.default.fileExists(atPath: runtime), "the toolchain is not where the test looks: \(runtime)")
        let script = """
            set -e
            mount -t tmpfs -o size=1m satchel-hidden '\(toolchain)'
            if [ -e '\(runtime)' ]; then echo 'the toolchain is still visible'; exit 3; fi
            exec "$@"
            """
        return try await Command.run(
            "/usr/bin/unshare",
            ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", executable] + arguments)
    }

    /// A Swift program with a runtime of its own loads the library and uses both runtimes from
    /// many threads at once.
    @Test func livesBesideASwiftProgramsRuntime() async throws {
        let source = CLibrary.root.appendingPathComponent("Tests/CAPITests/swift/runtime_neighbour.swift")
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("runtime_neighbour")
        let build = try await Command.run(
            "\(Self.toolchain)/bin/swiftc", ["-swift-version", "5", "-O", source.path, "-o", program.path])
        try #require(build.status == 0, "\(build.errorOutput)")
        let result = try await Command.run(program.path, [try Self.library.path])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output == "ok\n")
    }
}
