// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

/// Tests/Fixtures/multipart/sender-cases.json through the C ABI: Tests/CAPITests/c/multipart_cases.c
/// decodes every body with `satchel_registry_decode` (raw parts, CRLF only where the case says so)
/// and prints each part's name, file name and exact bytes, or the status and message of the
/// error; built with gcc and run as it is and under valgrind.
@Suite(.hangGuard)
struct MultipartSenderCaseCTests {
    static let source = CLibrary.root.appendingPathComponent("Tests/CAPITests/c/multipart_cases.c")

    /// The program's arguments for every case (bodies written to `folder`), and the lines it must print.
    static func plan(in folder: URL) throws -> (arguments: [String], expected: [String]) {
        var arguments: [String] = []
        var expected: [String] = []
        for (index, item) in try MultipartSenderCase.all().enumerated() {
            let body = folder.appendingPathComponent("case-\(index).body")
            try Data(item.bodyBytes).write(to: body)
            arguments += [item.crlfOnly ? "1" : "0", item.contentType, body.path]
            expected.append("case \(index)")
            if let parts = item.parts {
                expected += parts.map { "part \(hex($0.name)) \(hex($0.filename)) \(hex($0.body))" }
            } else if let error = item.error {
                let code = try #require(SatchelError.Code.allCases.first { $0.name == error.code })
                expected.append(
                    "error \(code.rawValue) \(error.mentions.joined(separator: "|")) (at byte \(error.offset))")
            }
        }
        return (arguments, expected + ["done"])
    }

    static func hex(_ text: String?) -> String {
        guard let text else { return "-" }
        return text.isEmpty ? "=" : text.utf8.map { String(format: "%02x", $0) }.joined()
    }

    /// Checks the program's output line by line; an error line must have the status, every
    /// mention and the offset.
    static func check(_ output: String, against expected: [String]) {
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count, "\(output)")
        for (line, want) in zip(lines, expected) {
            guard want.hasPrefix("error ") else {
                #expect(line == want)
                continue
            }
            let words = want.split(separator: " ", maxSplits: 2).map(String.init)
            let rest = words[2]
            let at = rest.range(of: " (at byte ")!
            #expect(line.hasPrefix("error \(words[1]) "), "\(line)")
            for mention in rest[..<at.lowerBound].split(separator: "|") {
                #expect(line.contains(mention), "\(line) lacks \(mention)")
            }
            #expect(line.contains(String(rest[at.lowerBound...]).dropFirst()), "\(line)")
        }
    }

    @Test func everyCaseReadsAsInSwift() async throws {
        let folder = try CLibrary.temporaryDirectory()
        let program = folder.appendingPathComponent("multipart_cases")
        try await CLibrary.compile([Self.source], compiler: "gcc", flags: ["-std=c99", "-g"], output: program)
        let (arguments, expected) = try Self.plan(in: folder)
        let result = try await Command.run(program.path, arguments)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        Self.check(result.output, against: expected)

        let checked = try await Command.run(
            "/usr/bin/valgrind",
            [
                "--error-exitcode=9", "--leak-check=full", "--show-leak-kinds=definite,indirect",
                "--errors-for-leak-kinds=definite,indirect", program.path,
            ] + arguments)
        #expect(checked.status == 0, "\(checked.output)\n\(checked.errorOutput.suffix(4000))")
        #expect(checked.errorOutput.contains("ERROR SUMMARY: 0 errors"))
        Self.check(checked.output, against: expected)
    }
}
