// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// Every source file names its licence, Apache-2.0, by its SPDX identifier in its first lines
/// (LICENSE; CONTRIBUTING.md, "Licence, version, changelog").
@Suite struct LicenceHeaderTests {
    static let root = TestServers.root
    static let identifier = "SPDX-License-Identifier: Apache-2.0"
    /// Source files by their extension; files without one count when they start with `#!`.
    static let sourceExtensions: Set<String> = ["swift", "c", "h", "cpp", "py", "pyi", "sh", "bash"]
    /// Folders of data (fixtures, seeds, corpora, build products), not sources.
    static let dataFolders: Set<String> = [
        "Fixtures", "Seeds", "Dictionaries", "Corpus", "Crashes", "Logs", "build", "__pycache__",
    ]

    /// The project's source files, relative to the root.
    static func sourceFiles() throws -> [String] {
        var files = ["Package.swift"]
        for top in [
            "Sources", "Tests", "Tools", "Fuzz", "Benchmarks", "Examples", "bindings", "include", "scripts", ".ci",
        ] {
            let folder = root.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
            else { continue }
            for case let url as URL in walker {
                let name = url.lastPathComponent
                if try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
                    if dataFolders.contains(name) || (name.hasPrefix(".") && name != ".ci") { walker.skipDescendants() }
                    continue
                }
                let isSource =
                    sourceExtensions.contains(url.pathExtension)
                    || (url.pathExtension.isEmpty
                        && (try? FileHandle(forReadingFrom: url).read(upToCount: 2)) == Data("#!".utf8))
                if isSource { files.append(String(url.path.dropFirst(root.path.count + 1))) }
            }
        }
        return files
    }

    @Test func theRepositoryHasTheLicenceText() throws {
        let licence = try String(contentsOf: Self.root.appendingPathComponent("LICENSE"), encoding: .utf8)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        #expect(licence.contains("END OF TERMS AND CONDITIONS"))
    }

    @Test func everySourceFileCarriesTheIdentifier() throws {
        let files = try Self.sourceFiles()
        // The walk found the project, not an empty folder: the library, the command and the C header.
        #expect(files.contains("Sources/Satchel/Satchel.swift") || files.contains { $0.hasPrefix("Sources/Satchel/") })
        #expect(files.contains("include/satchel.h") && files.contains("scripts/test"))
        let missing = try files.filter { path in
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            return !text.split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false).prefix(5)
                .contains { $0.contains(Self.identifier) }
        }
        #expect(missing.isEmpty, "no \(Self.identifier) in the first five lines of: \(missing.joined(separator: ", "))")
    }
}
