// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel decode` on multipart/form-data bodies, through the built binary.
@Suite struct MultipartDecodeCLITests {
    static let fixtures = TestServers.root.appendingPathComponent("Tests/Fixtures/multipart")

    static func fixture(_ name: String) throws -> (path: String, contentType: String) {
        let type = try String(contentsOf: fixtures.appendingPathComponent("\(name).content-type"), encoding: .utf8)
        return (fixtures.appendingPathComponent("\(name).body").path, type)
    }

    static let small =
        "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
        + "--B\r\ncontent-disposition: form-data; name=\"j\"\r\nContent-Type: application/json\r\n\r\n{\"x\":[1]}\r\n"
        + "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"../b.bin\"; filename*=UTF-8''%C3%A9.bin\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\r\n--B--\r\n"

    @Test func printsCanonicalJSON() throws {
        let result = try CommandRunner.run(
            ["decode", "-c", "multipart/form-data; boundary=B", "-"], input: Array(Self.small.utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.isEmpty)
        let expected =
            #"{"$multipart":["#
            + #"{"headers":[["Content-Disposition","form-data; name=\"a\""]],"name":"a","filename":null,"filenameStar":null,"contentType":null,"size":1,"value":"1"},"#
            + #"{"headers":[["content-disposition","form-data; name=\"j\""],["Content-Type","application/json"]],"name":"j","filename":null,"filenameStar":null,"contentType":"application/json","size":9,"value":{"x":[1]}},"#
            + #"{"headers":[["Content-Disposition","form-data; name=\"f\"; filename=\"../b.bin\"; filename*=UTF-8''%C3%A9.bin"],["Content-Type","application/octet-stream"]],"name":"f","filename":"../b.bin","filenameStar":"é.bin","contentType":"application/octet-stream","size":2,"value":{"$data":"AAE="}}"#
            + "]}\n"
        #expect(result.output == expected)
    }

    @Test func rawPartsLeaveBodiesUndecoded() throws {
        let result = try CommandRunner.run(
            ["decode", "--raw-parts", "-c", "multipart/form-data; boundary=B"], input: Array(Self.small.utf8))
        #expect(result.status == 0)
        #expect(result.output.contains(#""size":9,"value":{"$data":"eyJ4IjpbMV19"}"#))
        #expect(result.output.contains(#""size":1,"value":"1"}"#))
    }

    @Test func decodesCurlFixture() throws {
        let (path, type) = try Self.fixture("curl-form")
        let result = try CommandRunner.run(["decode", "--content-type", type, path])
        #expect(result.status == 0, "\(result.errorOutput)")
        let object = try JSONSerialization.jsonObject(with: Data(result.outputBytes)) as? [String: Any]
        let parts = try #require(object?["$multipart"] as? [[String: Any]])
        #expect(
            parts.map { $0["name"] as? String } == [
                "field", "utf8", "file", "blob", "json", "empty", "accent", "renamed",
            ])
        let json = parts[4]["value"] as? [String: Any]
        #expect(json?["a"] as? [Int] == [1, 2])
        #expect(json?["b"] as? String == "x")
        #expect(parts[5]["size"] as? Int == 0)
        #expect(parts[7]["filename"] as? String == #"dir/../x "q".txt"#)
        #expect((parts[3]["value"] as? [String: String])?["$data"]?.isEmpty == false)
    }

    @Test func partThatFailsToDecodeGetsError() throws {
        let body =
            "--B\r\nContent-Disposition: form-data; name=\"j\"\r\nContent-Type: application/json\r\n\r\n{\"x\":}\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"ok\"\r\n\r\nfine\r\n--B--"
        let result = try CommandRunner.run(
            ["decode", "-c", "multipart/form-data; boundary=B"], input: Array(body.utf8))
        #expect(result.status == 0)
        #expect(result.output.contains(#""value":{"$error":{"code":"syntaxError","message":"#))
        #expect(
            result.output.contains(
                #""name":"ok","filename":null,"filenameStar":null,"contentType":null,"size":4,"value":"fine"}"#))
    }

    @Test func bareLineFeedsAreReadUnlessCRLFOnly() throws {
        let (path, type) = try Self.fixture("lf-form")
        let strict = try CommandRunner.run(["decode", "--crlf-only", "-c", type, path])
        #expect(strict.status == 65)
        #expect(strict.output.isEmpty)
        #expect(strict.errorOutput.hasPrefix("satchel: syntaxError: "))
        #expect(strict.errorOutput.contains("part 0"))
        #expect(strict.errorOutput.contains("(at byte 16)"))
        let lenient = try CommandRunner.run(["decode", "-c", type, path])
        #expect(lenient.status == 0, "\(lenient.errorOutput)")
        #expect(lenient.output.contains(#""name":"third","filename":"t.txt""#))
        #expect(lenient.output.contains(#""value":"a\n\nb""#))
    }

    /// Tests/Fixtures/multipart/sender-cases.json, as the Swift and C tests read it: the parts'
    /// exact bytes with `--raw-parts`, or exit 65 naming the part and the byte offset.
    @Test(arguments: (try? MultipartSenderCase.all()) ?? [])
    func senderCase(_ item: MultipartSenderCase) throws {
        let file = try CommandRunner.temporaryFile(item.bodyBytes)
        let options = item.crlfOnly ? ["--crlf-only"] : []
        let result = try CommandRunner.run(["decode", "--raw-parts"] + options + ["-c", item.contentType, file])
        if let error = item.error {
            #expect(result.status == 65)
            #expect(result.output.isEmpty)
            #expect(result.errorOutput.hasPrefix("satchel: \(error.code): "))
            for mention in error.mentions + ["(at byte \(error.offset))"] {
                #expect(result.errorOutput.contains(mention), "\(result.errorOutput)")
            }
            return
        }
        #expect(result.status == 0, "\(result.errorOutput)")
        // JSONDecoder, since Foundation's JSONSerialization drops U+FEFF from strings on Linux.
        let parts = try JSONDecoder().decode(RawPartsOutput.self, from: Data(result.outputBytes)).parts
        let read = parts.map {
            MultipartSenderCase.Part(name: $0.name, filename: $0.filenameStar ?? $0.filename, body: $0.value)
        }
        #expect(read == item.parts)
        #expect(read.map { Array($0.body.utf8) } == item.parts?.map { Array($0.body.utf8) })
        #expect(parts.map(\.size) == item.parts?.map { $0.body.utf8.count })
    }

    /// The output of `satchel decode --raw-parts` for parts whose values are all strings.
    struct RawPartsOutput: Decodable {
        struct Part: Decodable {
            var name: String?
            var filename: String?
            var filenameStar: String?
            var size: Int
            var value: String
        }

        var parts: [Part]

        enum CodingKeys: String, CodingKey { case parts = "$multipart" }
    }

    /// Malformed bodies exit non-zero with one line naming the part and the byte offset.
    @Test func malformedBodiesFail() throws {
        let part = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue"
        let cases: [(arguments: [String], input: String, status: Int32, mentions: [String])] = [
            ([], part, 65, ["truncatedInput", "part 0", "(at byte \(part.utf8.count))"]),
            ([], part + "\r\n--B", 65, ["truncatedInput", "missing final boundary", "part 0"]),
            (
                [], "--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--X--", 65,
                ["never appears", "\"--X\""]
            ),
            (
                [], "--B\r\nContent-Disposition: form-data; name=\"a\"\r\nvalue\r\n--B--", 65,
                ["no blank line", "part 0", "(at byte 47)"]
            ),
            (
                [], "--B\r\nContent-Type: text/plain\r\n\r\nv\r\n--B--", 65,
                ["part 0 has no Content-Disposition", "(at byte 5)"]
            ),
            (
                ["--max-parts", "1"],
                part + "\r\n--B\r\n" + "Content-Disposition: form-data; name=\"b\"\r\n\r\nv\r\n--B--", 68,
                ["limitExceeded", "Limits.maxParts (1)", "part 1", "(at byte \((part + "\r\n--B\r\n").utf8.count))"]
            ),
            (
                ["--max-part-header-bytes", "20"], part + "\r\n--B--", 68,
                ["Limits.maxPartHeaderBytes (20)", "part 0", "(at byte 25)"]
            ),
        ]
        for (arguments, input, status, mentions) in cases {
            let result = try CommandRunner.run(
                ["decode", "-c", "multipart/form-data; boundary=B"] + arguments, input: Array(input.utf8))
            #expect(result.status == status, "\(input.debugDescription): \(result.errorOutput)")
            #expect(result.output.isEmpty)
            #expect(result.errorOutput.hasSuffix("\n") && result.errorOutput.filter { $0 == "\n" }.count == 1)
            for mention in mentions {
                #expect(result.errorOutput.contains(mention), "\(result.errorOutput) lacks \(mention)")
            }
        }
    }

    @Test func nestingAndBoundaryErrors() throws {
        let (path, type) = try Self.fixture("rfc-features")
        let nested = try CommandRunner.run(["decode", "-c", type, path])
        #expect(nested.status == 0, "\(nested.errorOutput)")
        #expect(
            nested.output.contains(
                #""value":{"$multipart":[{"headers":[["Content-Disposition","file; filename=\"file1.txt\""]"#))
        let tooDeep = try CommandRunner.run(["decode", "--max-depth", "1", "-c", type, path])
        #expect(tooDeep.status == 68)
        #expect(tooDeep.errorOutput.contains("in part 6: a multipart body nested 2 deep exceeds Limits.maxDepth (1)"))
        let noBoundary = try CommandRunner.run(["decode", "-c", "multipart/form-data", path])
        #expect(noBoundary.status == 64)
        #expect(noBoundary.errorOutput.contains("no boundary parameter"))
        let negative = try CommandRunner.run(["decode", "--max-parts", "-1", "-c", type, path])
        #expect(negative.status == 64)
    }
}
