// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport

/// libsatchel as a C program sees it: installed once per test process under a temporary
/// prefix by `scripts/install-c-library --bin`, from the debug build beside the test bundle.
enum CLibrary {
    /// The repository root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The build products folder holding libSatchelC.so (beside the test bundle).
    static let buildDirectory: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("libSatchelC.so").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug")
    }()

    /// The install prefix, or the error installing gave.
    private static let installed = Result { () throws -> URL in
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-c-\(UUID().uuidString)")
        let result = try Command.runBlocking(
            "/bin/bash",
            [
                root.appendingPathComponent("scripts/install-c-library").path, "--bin", buildDirectory.path, "--prefix",
                prefix.path,
            ])
        guard result.status == 0 else { throw Command.Failure("install-c-library failed: \(result.errorOutput)") }
        return prefix
    }

    /// The install prefix (installing on first use).
    static func prefix() throws -> URL { try installed.get() }

    /// The valgrind suppression file as installed, found as a user finds it:
    /// `pkg-config --variable=valgrind_suppressions satchel`.
    static func suppressions() throws -> URL {
        let result = try Command.runBlocking(
            "/usr/bin/pkg-config", ["--variable=valgrind_suppressions", "satchel"],
            environment: ["PKG_CONFIG_PATH": try prefix().appendingPathComponent("lib/pkgconfig").path])
        let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, FileManager.default.fileExists(atPath: path) else {
            throw Command.Failure("no valgrind suppressions at '\(path)': \(result.errorOutput)")
        }
        return URL(fileURLWithPath: path)
    }

    /// The suppression file in the source tree, the one scripts/install-c-library installs:
    /// for tests that should not wait for the install.
    static let sourceSuppressions = root.appendingPathComponent("Sources/CAPI/libsatchel.supp")

    /// valgrind's arguments as a C programmer runs it on a program that uses libsatchel: every
    /// leak kind Memcheck counts by default ("possibly lost" included), exit status 9 on any
    /// error, and only libsatchel's suppression file (`suppressions`).
    static func valgrindArguments(suppressions: URL) -> [String] {
        ["--leak-check=full", "--error-exitcode=9", "--suppressions=" + suppressions.path]
    }

    /// `pkg-config --cflags --libs satchel` against the installed .pc file.
    static func pkgConfigFlags() throws -> [String] {
        let result = try Command.runBlocking(
            "/usr/bin/pkg-config", ["--cflags", "--libs", "satchel"],
            environment: ["PKG_CONFIG_PATH": try prefix().appendingPathComponent("lib/pkgconfig").path])
        guard result.status == 0 else { throw Command.Failure("pkg-config failed: \(result.errorOutput)") }
        return result.output.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// A fresh temporary folder for build outputs.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-c-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Compiles C (or C++) sources into an executable linked with the installed libsatchel.
    ///
    /// - Parameters:
    ///   - compiler: `gcc`, `clang`, `g++` or `clang++`.
    ///   - flags: Language and warning flags, such as `["-std=c99"]`.
    static func compile(_ sources: [URL], compiler: String, flags: [String], output: URL) async throws {
        var arguments = flags + ["-Wall", "-Wextra", "-pedantic", "-Werror"]
        if compiler.hasSuffix("++") { arguments += ["-x", "c++"] }
        arguments += sources.map(\.path) + ["-o", output.path] + (try pkgConfigFlags()) + ["-lpthread"]
        let result = try await Command.run("/usr/bin/env", [compiler] + arguments)
        guard result.status == 0 else { throw Command.Failure("\(compiler) failed: \(result.errorOutput)") }
    }

    /// Builds Examples/c/csv_plugin.c as a shared object (not linked with libsatchel).
    static func csvPlugin() throws -> URL { try builtPlugin.get() }

    private static let builtPlugin = Result { () throws -> URL in
        let output = try temporaryDirectory().appendingPathComponent("csv_plugin.so")
        let result = try Command.runBlocking(
            "/usr/bin/env",
            [
                "gcc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-shared", "-fPIC",
                "-I", root.appendingPathComponent("include").path,
                root.appendingPathComponent("Examples/c/csv_plugin.c").path, "-o", output.path,
            ])
        guard result.status == 0 else { throw Command.Failure("building the plugin failed: \(result.errorOutput)") }
        return output
    }

    /// A 3×2 RGBA PNG, every pixel (10, 20, 30, 255), written by Pillow (an independent encoder).
    static func tinyPNG() throws -> URL { try generatedPNG.get() }

    private static let generatedPNG = Result { () throws -> URL in
        let output = try temporaryDirectory().appendingPathComponent("tiny.png")
        let result = try VenvPython.run(
            "import sys; from PIL import Image; Image.new('RGBA', (3, 2), (10, 20, 30, 255)).save(sys.argv[1])",
            [output.path])
        guard result.status == 0 else { throw Command.Failure("Pillow failed: \(result.output)") }
        return output
    }
}
