// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// include/satchel.h compiles warning-free in every language mode, and libsatchel.so exports
/// exactly its functions.
@Suite(.hangGuard)
struct HeaderTests {
    static let modes: [(compiler: String, standard: String)] =
        ["gcc", "clang"].flatMap { compiler in ["c89", "c99", "c11", "c17"].map { (compiler, $0) } }
        + ["g++", "clang++"].flatMap { compiler in
            ["c++98", "c++03", "c++11", "c++14", "c++17", "c++20"].map { (compiler, $0) }
        }

    @Test(arguments: HeaderTests.modes.map { "\($0.compiler) -std=\($0.standard)" })
    func headerCompiles(mode: String) async throws {
        let parts = mode.split(separator: " ").map(String.init)
        let directory = try CLibrary.temporaryDirectory()
        let source = directory.appendingPathComponent(parts[0].hasSuffix("++") ? "check.cpp" : "check.c")
        // Every declaration is used through a pointer so that a mistyped one fails to compile.
        try """
        #include "satchel.h"
        int main(void) {
            const char *(*version)(void) = satchel_version;
            satchel_status (*decode)(satchel_value **, const satchel_registry *, const char *, size_t, const void *, size_t) = satchel_registry_decode;
            satchel_image_info info;
            info.struct_size = sizeof info;
            (void)decode;
            return version() != 0 && info.struct_size > 0 ? 0 : 1;
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let result = try await Command.run(
            "/usr/bin/env",
            [
                parts[0], parts[1], "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
                "-I", CLibrary.root.appendingPathComponent("include").path, source.path,
            ])
        #expect(result.status == 0, "\(mode): \(result.errorOutput)")
    }

    /// A user's own SATCHEL_API replaces the header's (as with CURL_EXTERN and SQLITE_API).
    @Test func exportMacroCanBeOverridden() async throws {
        let directory = try CLibrary.temporaryDirectory()
        let source = directory.appendingPathComponent("override.c")
        try """
        #define SATCHEL_API extern __attribute__((deprecated("from the user's SATCHEL_API")))
        #include "satchel.h"
        int main(void) { return satchel_version() != 0 ? 0 : 1; }
        """.write(to: source, atomically: true, encoding: .utf8)
        let result = try await Command.run(
            "/usr/bin/env",
            [
                "gcc", "-std=c99", "-fsyntax-only", "-I", CLibrary.root.appendingPathComponent("include").path,
                source.path,
            ])
        #expect(result.status == 0, "\(result.errorOutput)")
        // The override took effect: every use of a declaration now carries the user's attribute.
        #expect(result.errorOutput.contains("from the user's SATCHEL_API"), "\(result.errorOutput)")
    }

    @Test func exportsAreExactlyTheHeadersFunctions() async throws {
        let declared = try declaredFunctions()
        let library = try CLibrary.prefix().appendingPathComponent("lib/libsatchel.so.0").resolvingSymlinksInPath()
        let nm = try await Command.run("/usr/bin/nm", ["-D", "--defined-only", library.path])
        #expect(nm.status == 0)
        // Global symbols only (upper-case types); the version node itself is an absolute symbol.
        let exported = Set(
            nm.output.split(separator: "\n").compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count == 3, fields[1].first?.isUppercase == true, fields[1] != "A" else { return nil }
                return String(fields[2].split(separator: "@").first ?? fields[2])
            })
        #expect(
            exported == declared,
            "exported but not declared: \(exported.subtracting(declared)); declared but not exported: \(declared.subtracting(exported))"
        )
        #expect(declared.count > 80)
    }

    @Test func libraryHasItsSONAME() async throws {
        let library = try CLibrary.prefix().appendingPathComponent("lib/libsatchel.so")
        let readelf = try await Command.run("/usr/bin/readelf", ["-d", library.path])
        #expect(readelf.output.contains("Library soname: [libsatchel.so.0]"))
    }

    @Test func exportMapIsCurrent() async throws {
        let map = try String(
            contentsOf: CLibrary.root.appendingPathComponent("Sources/CAPI/satchel.map"), encoding: .utf8)
        let listed = Set(
            map.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("satchel_") }.map { String($0.dropLast()) })
        #expect(listed == (try declaredFunctions()), "run scripts/generate-export-map")
    }

    /// The functions include/satchel.h declares.
    private func declaredFunctions() throws -> Set<String> {
        let header = try String(contentsOf: CLibrary.root.appendingPathComponent("include/satchel.h"), encoding: .utf8)
        var names = Set<String>()
        for line in header.split(separator: "\n") where line.hasPrefix("SATCHEL_API ") {
            guard let open = line.firstIndex(of: "(") else { continue }
            let beforeParenthesis = line[..<open]
            if let name = beforeParenthesis.split(whereSeparator: { $0 == " " || $0 == "*" }).last {
                names.insert(String(name))
            }
        }
        return names
    }
}
