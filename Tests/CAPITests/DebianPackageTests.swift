// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

/// `scripts/package-deb` builds libsatchel0, libsatchel0-dbgsym, libsatchel-dev and satchel from
/// the debug build (`--fast`: gzip, as what is tested is the packages, not their compression);
/// they pass lintian, install with apt-get, a C program built with `pkg-config` against them and
/// the command run with the toolchain hidden, the program passes valgrind with the installed
/// suppressions, and they remove cleanly. As root, as in CI.
@Suite(.hangGuard)
struct DebianPackageTests {
    static let packages = ["libsatchel0", "libsatchel0-dbgsym", "libsatchel-dev", "satchel"]

    @Test func packagesInstallWorkAndRemove() async throws {
        try #require(getuid() == 0, "installing packages needs root, as in CI")
        for package in Self.packages {
            let status = try await Command.run("/usr/bin/dpkg-query", ["-W", "-f", "${Status}", package])
            try #require(
                !status.output.contains("installed"), "\(package) is already installed here; the test would remove it")
        }
        let output = try CLibrary.temporaryDirectory()
        let built = try await Command.run(
            CLibrary.root.appendingPathComponent("scripts/package-deb").path,
            [
                "--bin", CLibrary.buildDirectory.path, "--tools-bin",
                BuiltProducts.satchel.deletingLastPathComponent().path,
                "--out", output.path, "--fast",
            ])
        // The script runs lintian and fails on its errors and warnings.
        try #require(built.status == 0, "\(built.output)\n\(built.errorOutput.suffix(3000))")
        let debs = built.output.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".deb") }
        try #require(debs.count == 4, "\(built.output)")
        try await Self.checkControl(debs)

        let install = try await Command.run(
            "/usr/bin/apt-get", ["install", "-y", "--no-install-recommends"] + debs,
            environment: ["DEBIAN_FRONTEND": "noninteractive"])
        var failure: (any Error)?
        do {
            try #require(install.status == 0, "\(install.output.suffix(2000))\n\(install.errorOutput)")
            try await Self.useInstalledPackages()
        } catch {
            failure = error
        }
        let remove = try await Command.run(
            "/usr/bin/apt-get", ["remove", "--purge", "-y"] + Self.packages,
            environment: ["DEBIAN_FRONTEND": "noninteractive"])
        #expect(remove.status == 0, "\(remove.errorOutput)")
        for path in [
            "/usr/include/satchel.h", "/usr/bin/satchel", "/usr/lib/x86_64-linux-gnu/libsatchel.so.0",
            "/usr/lib/x86_64-linux-gnu/pkgconfig/satchel.pc", "/usr/share/satchel/valgrind/libsatchel.supp",
        ] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) left behind")
        }
        if let failure { throw failure }
    }

    /// Depends names the Debian 12 packages of the wrapped C libraries (from dpkg-shlibdeps);
    /// no maintainer scripts; the files where Debian's policy puts them.
    static func checkControl(_ debs: [String]) async throws {
        for deb in debs {
            let info = try await Command.run("/usr/bin/dpkg-deb", ["--info", deb])
            #expect(info.status == 0)
            for script in ["preinst", "postinst", "prerm", "postrm"] {
                #expect(!info.output.contains(" \(script) "), "\(deb) has a \(script)")
            }
        }
        // Each package's version is the project's (VERSION), Debian revision 1; its copyright
        // file names the licence in DEP-5's form.
        let version = try String(contentsOf: CLibrary.root.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for deb in debs {
            let field = try await Command.run("/usr/bin/dpkg-deb", ["--field", deb, "Version"])
            #expect(field.output == "\(version)-1\n", "\(deb): \(field.output)")
            let package = URL(fileURLWithPath: deb).lastPathComponent.split(separator: "_")[0]
            // A debug package's documentation is its library's: a link to that folder.
            guard package != "libsatchel0-dbgsym" else { continue }
            let copyright = try await Command.run(
                "/bin/sh", ["-c", "dpkg-deb --fsys-tarfile \"$0\" | tar -xO ./usr/share/doc/\(package)/copyright", deb])
            #expect(copyright.output.contains("License: Apache-2.0\n"), "\(deb): \(copyright.output)")
        }
        let library = try #require(debs.first { $0.contains("/libsatchel0_") })
        let depends = try await Command.run("/usr/bin/dpkg-deb", ["--field", library, "Depends"])
        for package in ["libc6", "libcurl4", "libjson-c5", "libxml2", "libpng16-16", "libjpeg62-turbo"] {
            #expect(depends.output.contains("\(package) ("), "\(package) in \(depends.output)")
        }
        #expect(!depends.output.contains("swift"))
        let files = try await Command.run("/usr/bin/dpkg-deb", ["--contents", library])
        #expect(
            files.output.contains(
                "./usr/lib/x86_64-linux-gnu/libsatchel.so.0 -> libsatchel.so.\(DefaultHeaders.satchelVersion)"))
        let symbols = try #require(debs.first { $0.contains("/libsatchel0-dbgsym_") })
        let symbolFiles = try await Command.run("/usr/bin/dpkg-deb", ["--contents", symbols])
        #expect(symbolFiles.output.contains("./usr/lib/debug/.build-id/"), "\(symbolFiles.output)")
        #expect(symbolFiles.output.contains(".debug\n"), "\(symbolFiles.output)")
        #expect(
            symbolFiles.output.contains("./usr/share/doc/libsatchel0-dbgsym -> libsatchel0"), "\(symbolFiles.output)")
        let command = try #require(debs.first { $0.contains("/satchel_") })
        // The command links libcrypto (the fixture server's certificates) and loads libcurl.
        let commandDepends = try await Command.run("/usr/bin/dpkg-deb", ["--field", command, "Depends"])
        for package in ["libssl3", "libcurl4"] {
            #expect(commandDepends.output.contains("\(package) ("), "\(package) in \(commandDepends.output)")
        }
        let commandFiles = try await Command.run("/usr/bin/dpkg-deb", ["--contents", command])
        for path in [
            "./usr/bin/satchel", "./usr/share/man/man1/satchel.1.gz", "./usr/share/bash-completion/completions/satchel",
        ] {
            #expect(commandFiles.output.contains(path), "\(path) in the satchel package")
        }
    }

    /// The decode example built with the installed header and `pkg-config` (no search path of
    /// ours), and the installed command, both run without the toolchain.
    static func useInstalledPackages() async throws {
        let flags = try await Command.run(
            "/usr/bin/pkg-config", ["--cflags", "--libs", "satchel"], environment: ["PKG_CONFIG_PATH": ""])
        try #require(flags.status == 0, "\(flags.errorOutput)")
        // The library is in the loader's own search path: no -L, no run path.
        let words = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(
            words.contains("-lsatchel") && !words.contains { $0.hasPrefix("-L") || $0.contains("rpath") }, "\(words)")
        let program = try CLibrary.temporaryDirectory().appendingPathComponent("decode")
        let compile = try await Command.run(
            "/usr/bin/gcc",
            [
                "-std=c99", "-Wall", "-Werror", CLibrary.root.appendingPathComponent("Examples/c/decode.c").path, "-o",
                program.path,
            ]
                + words)
        try #require(compile.status == 0, "\(compile.errorOutput)")
        let (_, files) = try ExampleTests.payloads()
        let decoded = try await SelfContainedLibraryTests.runHidingTheToolchain(
            program.path, ["application/json", files["data.json"]!.path, "image/png", files["tiny.png"]!.path])
        #expect(decoded.status == 0, "\(decoded.errorOutput)")
        #expect(decoded.output.contains(#"{"name":"Ann","ids":[1,18446744073709551615]}"#))
        #expect(decoded.output.contains("image: png 3x2"))
        let ldd = try await Command.run("/usr/bin/ldd", [program.path])
        // Debian 12 merges /lib into /usr/lib: the loader may name either.
        #expect(ldd.output.contains("lib/x86_64-linux-gnu/libsatchel.so.0 ("), "\(ldd.output)")
        // libsatchel-dev's valgrind suppressions, where pkg-config says they are.
        let suppressions = try await Command.run(
            "/usr/bin/pkg-config", ["--variable=valgrind_suppressions", "satchel"], environment: ["PKG_CONFIG_PATH": ""]
        )
        #expect(suppressions.output == "/usr/share/satchel/valgrind/libsatchel.supp\n", "\(suppressions.output)")
        #expect(FileManager.default.fileExists(atPath: "/usr/share/satchel/valgrind/libsatchel.supp"))
        // The library is stripped; valgrind finds its symbols in libsatchel0-dbgsym by build ID,
        // which the suppressions' runtime frames need.
        let valgrind = try await Command.run(
            "/usr/bin/valgrind",
            CLibrary.valgrindArguments(
                suppressions: URL(fileURLWithPath: "/usr/share/satchel/valgrind/libsatchel.supp"))
                + [program.path, "application/json", files["data.json"]!.path, "image/png", files["tiny.png"]!.path])
        #expect(valgrind.status == 0, "\(valgrind.errorOutput.suffix(3000))")
        #expect(valgrind.errorOutput.contains("ERROR SUMMARY: 0 errors"), "\(valgrind.errorOutput.suffix(3000))")

        let version = try await SelfContainedLibraryTests.runHidingTheToolchain("/usr/bin/satchel", ["--version"])
        #expect(version.status == 0, "\(version.errorOutput)")
        #expect(version.output == "\(DefaultHeaders.satchelVersion)\n")
        let command = try await SelfContainedLibraryTests.runHidingTheToolchain(
            "/usr/bin/satchel", ["decode", "--content-type", "application/json", files["data.json"]!.path])
        #expect(command.status == 0, "\(command.errorOutput)")
        #expect(command.output.contains("18446744073709551615"), "\(command.output)")
    }
}
