// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct MultipartEncodeCLITests {
    /// Deterministic bytes that look random, with no line feeds (so no delimiter can form).
    func bytes(_ count: Int) -> [UInt8] {
        var state: UInt32 = 2_463_534_242
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            let byte = UInt8(truncatingIfNeeded: state)
            return byte == 0x0A ? 0 : byte
        }
    }

    @Test func writesParametersAndFilesWithAFixedBoundary() throws {
        let file = try CommandRunner.temporaryFile("hello\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let parameters = try CommandRunner.temporaryFile(#"{"user":{"tags":["a"],"name":"Ann"},"n":1}"#)
        defer { try? FileManager.default.removeItem(atPath: parameters) }
        let result = try CommandRunner.run([
            "encode", "--as", "multipart", "--boundary", "AaB03x",
            "--file", "doc=@\(file);type=text/x-note;filename=\"a;b \\\"c\\\".txt\"",
            "--file", "photo=@\(file);filename=photo.png",
            parameters,
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output == "--AaB03x\r\n"
                + "Content-Disposition: form-data; name=\"n\"\r\n\r\n1\r\n"
                + "--AaB03x\r\n"
                + "Content-Disposition: form-data; name=\"user[name]\"\r\n\r\nAnn\r\n"
                + "--AaB03x\r\n"
                + "Content-Disposition: form-data; name=\"user[tags][]\"\r\n\r\na\r\n"
                + "--AaB03x\r\n"
                + "Content-Disposition: form-data; name=\"doc\"; filename=\"a;b %22c%22.txt\"\r\n"
                + "Content-Type: text/x-note\r\n\r\nhello\n\r\n"
                + "--AaB03x\r\n"
                + "Content-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\n"
                + "Content-Type: image/png\r\n\r\nhello\n\r\n"
                + "--AaB03x--\r\n")
        #expect(result.errorOutput.isEmpty)
    }

    @Test func includeHeadersGivesTheBoundaryAndTheExactLength() throws {
        let content = bytes(3 * 1024 * 1024 + 17)
        let file = try CommandRunner.temporaryFile(content)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CommandRunner.run(
            ["encode", "--as", "multipart", "--include-headers", "--file", "upload=@\(file)", "-"],
            input: Array(#"{"title":"Résumé"}"#.utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        let output = result.outputBytes
        let separator = Array("\r\n\r\n".utf8)
        let headEnd = try #require(output.indices.first { output[$0...].starts(with: separator) })
        let head = String(decoding: output[..<headEnd], as: UTF8.self)
        let body = Array(output[(headEnd + 4)...])
        let lines = head.components(separatedBy: "\r\n")
        #expect(lines.first == "POST / HTTP/1.1")
        let contentType = try #require(lines.first { $0.hasPrefix("Content-Type: ") })
        let boundary = String(try #require(contentType.split(separator: "=").last))
        #expect(contentType == "Content-Type: multipart/form-data; boundary=\(boundary)")
        #expect(boundary.hasPrefix("satchel-") && boundary.count == 40)
        #expect(lines.contains("Content-Length: \(body.count)"))
        #expect(body.starts(with: Array("--\(boundary)\r\n".utf8)))
        #expect(String(decoding: body.suffix(50), as: UTF8.self).hasSuffix("\r\n--\(boundary)--\r\n"))
        // The file's bytes are there, whole, between its headers and the close delimiter.
        let fileStart = body.count - "\r\n--\(boundary)--\r\n".utf8.count - content.count
        #expect(Array(body[fileStart..<(fileStart + content.count)]) == content)
        #expect(String(decoding: body[..<fileStart], as: UTF8.self).contains("\r\n\r\nRésumé\r\n"))
    }

    @Test func randomBoundariesDifferBetweenRuns() throws {
        let first = try CommandRunner.run(["encode", "--as", "multipart"], input: Array(#"{"a":"1"}"#.utf8))
        let second = try CommandRunner.run(["encode", "--as", "multipart"], input: Array(#"{"a":"1"}"#.utf8))
        #expect(first.status == 0 && second.status == 0)
        #expect(first.output.hasPrefix("--satchel-"))
        #expect(first.output != second.output)
    }

    @Test func emptyParametersMakeABodyWithoutParts() throws {
        let result = try CommandRunner.run(
            ["encode", "--as", "multipart", "--boundary", "b"], input: Array(" \n".utf8))
        #expect(result.status == 0)
        #expect(result.output == "--b--\r\n")
    }

    @Test func nonASCIIFileNamesGetFilenameStar() throws {
        let file = try CommandRunner.temporaryFile("x")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CommandRunner.run([
            "encode", "--as", "multipart", "--boundary", "b", "--file", "cv=@\(file);filename=résumé.pdf",
        ])
        #expect(result.status == 0)
        #expect(
            result.output.contains(
                "Content-Disposition: form-data; name=\"cv\"; filename=\"r_sum_.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf\r\n"
                    + "Content-Type: application/pdf\r\n"))
    }

    @Test func failuresExitWithDocumentedCodes() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let file = try CommandRunner.temporaryFile("x")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let cases: [([String], Int32, String)] = [
            (["--file", "up=@/nonexistent/satchel.bin"], 66, #"part 0 ("up"): cannot use /nonexistent/satchel.bin"#),
            (["--file", "up=@\(directory)"], 66, "not a regular file"),
            (["--boundary", "bad\"quote", "--file", "up=@\(file)"], 64, "boundary"),
            (["--boundary", String(repeating: "b", count: 71), "--file", "up=@\(file)"], 64, "70"),
            (["--file", "no-at-sign=\(file)"], 64, "'@'"),
            (["--file", "=@\(file)"], 64, "field name"),
            (["--file", "up=@\(file);type=not a type"], 64, "media type"),
            (["--file", "up=@\(file);filename=\"open"], 64, "unterminated"),
        ]
        for (arguments, status, message) in cases {
            let result = try CommandRunner.run(["encode", "--as", "multipart"] + arguments)
            #expect(result.status == status, "\(arguments): \(result.errorOutput)")
            #expect(result.errorOutput.contains(message), "\(arguments): \(result.errorOutput)")
            #expect(result.outputBytes.isEmpty, "\(arguments)")
        }
        let formWithFile = try CommandRunner.run(
            ["encode", "--as", "form", "--file", "up=@\(file)"], input: Array("{}".utf8))
        #expect(formWithFile.status == 64)
    }

    /// A file the command cannot read: as an ordinary user, a file with mode 000; as root (which
    /// reads anything), the same file read by `nobody` through setpriv.
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func unreadableFileExitsBeforeWritingAnything() throws {
        let file = try CommandRunner.temporaryFile("secret")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(chmod(file, 0) == 0)
        let arguments = ["encode", "--as", "multipart", "--file", "up=@\(file)"]
        let result: CommandRunner.Result
        if getuid() == 0 {
            result = try runAsNobody([CommandRunner.executable.path] + arguments)
        } else {
            result = try CommandRunner.run(arguments)
        }
        #expect(result.status == 66, "\(result.errorOutput)")
        #expect(result.errorOutput.contains(#"part 0 ("up"): cannot read \#(file): Permission denied"#))
        #expect(result.outputBytes.isEmpty)
    }

    /// Runs a command as the user `nobody`, capturing its output in files.
    private func runAsNobody(_ command: [String]) throws -> CommandRunner.Result {
        let outputPath = try CommandRunner.temporaryFile([])
        let errorPath = try CommandRunner.temporaryFile([])
        defer {
            for path in [outputPath, errorPath] { try? FileManager.default.removeItem(atPath: path) }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups"] + command
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        return CommandRunner.Result(
            status: process.terminationStatus,
            outputBytes: Array(try Data(contentsOf: URL(fileURLWithPath: outputPath))),
            errorOutput: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self))
    }
}
