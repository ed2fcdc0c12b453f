// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// The committed completion scripts and man page match the command (regenerate them with
/// scripts/generate-cli-docs).
@Suite struct CLIDocsTests {
    static let docs = TestServers.root.appendingPathComponent("docs")

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptIsCurrent(_ shell: String) throws {
        let result = try CommandRunner.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        let committed = try String(
            contentsOf: Self.docs.appendingPathComponent("completions/satchel.\(shell)"), encoding: .utf8)
        #expect(result.output == committed, "docs/completions/satchel.\(shell) is stale: run scripts/generate-cli-docs")
    }

    @Test func manualNamesEveryOption() throws {
        // The page itself comes from the generate-manual plugin (too slow for a test); every
        // option the command has must appear in it, so a new option without a new page fails.
        let page = try String(contentsOf: Self.docs.appendingPathComponent("satchel.1"), encoding: .utf8)
        let dump = try CommandRunner.run(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let names = Set(
            dump.output.matches(of: /"kind"\s*:\s*"long"\s*,\s*"name"\s*:\s*"([a-z][a-z0-9-]+)"/).map { String($0.1) })
        #expect(names.contains("pin-sha256"))
        for name in names.sorted() {
            // mdoc writes an option as ".It Fl -name", or ".It Fl c , -name" with a short name.
            #expect(
                page.contains("Fl -\(name)") || page.contains(" , -\(name)"),
                "docs/satchel.1 lacks --\(name): run scripts/generate-cli-docs")
        }
    }
}
