// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import SatchelTestSupport
import Testing

/// Satchel's version is written once, in VERSION; every copy that cannot read that file agrees
/// with it (`scripts/set-version` writes them; docs/Releasing.md).
@Suite struct VersionTests {
    static let root = TestServers.root

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// VERSION's MAJOR.MINOR.PATCH.
    static func version() throws -> (text: String, parts: [Int]) {
        let text = try Self.text("VERSION").trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).compactMap { Int($0) }
        try #require(parts.count == 3 && parts.map(String.init).joined(separator: ".") == text, "VERSION holds \(text)")
        return (text, parts)
    }

    /// The value of `#define NAME VALUE` in the C header.
    static func macro(_ name: String, in header: String) -> String? {
        header.split(separator: "\n").lazy.compactMap { line -> String? in
            let fields = line.split(separator: " ", maxSplits: 2)
            return fields.count == 3 && fields[0] == "#define" && fields[1] == name ? String(fields[2]) : nil
        }.first
    }

    @Test func theHeaderSaysTheVersion() throws {
        let (text, parts) = try Self.version()
        let header = try Self.text("include/satchel.h")
        #expect(Self.macro("SATCHEL_VERSION", in: header) == "\"\(text)\"")
        #expect(Self.macro("SATCHEL_VERSION_MAJOR", in: header) == String(parts[0]))
        #expect(Self.macro("SATCHEL_VERSION_MINOR", in: header) == String(parts[1]))
        #expect(Self.macro("SATCHEL_VERSION_PATCH", in: header) == String(parts[2]))
        #expect(
            Self.macro("SATCHEL_VERSION_NUMBER", in: header)
                == String(parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2]))
    }

    /// What `satchel --version`, `satchel_version()` and the User-Agent show.
    @Test func theLibrarySaysTheVersion() throws {
        #expect(DefaultHeaders.satchelVersion == (try Self.version().text))
        #expect(DefaultHeaders.standard[.userAgent]?.hasPrefix("Satchel/\(try Self.version().text) ") == true)
    }

    @Test func thePythonPackageSaysTheVersion() throws {
        let project = try Self.text("bindings/python/pyproject.toml")
        #expect(project.split(separator: "\n").contains("version = \"\(try Self.version().text)\""))
    }

    @Test func theReferenceSaysTheVersion() throws {
        let plist = try Self.text("Sources/Satchel/Satchel.docc/Info.plist")
        let key = try #require(plist.range(of: "<key>CFBundleVersion</key>"))
        let value = plist[key.upperBound...].drop { $0.isWhitespace }
        #expect(value.hasPrefix("<string>\(try Self.version().text)</string>"))
    }

    @Test func theChangelogHasAnEntryForTheVersion() throws {
        let changelog = try Self.text("CHANGELOG.md")
        #expect(changelog.contains("\n## [\(try Self.version().text)] - "))
    }
}
