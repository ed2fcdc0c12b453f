// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel decode` of batch responses, sniffed bodies, text with a charset and problem details.
@Suite struct CompoundCLITests {
    static let fixtures = TestServers.root.appendingPathComponent("Tests/Fixtures/batch")

    @Test func aBatchPrintsEachSubResponseAsDollarHTTP() throws {
        let contentType = try String(
            contentsOf: Self.fixtures.appendingPathComponent("google-batch-response.content-type"), encoding: .utf8)
        let result = try CommandRunner.run(
            ["decode", "-c", contentType, Self.fixtures.appendingPathComponent("google-batch-response.body").path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output.contains(
                #""value":{"$http":{"status":200,"reason":"OK","headers":[["Content-Type","application/json; charset=UTF-8"]"#
            ))
        #expect(
            result.output.contains(
                #""error":{"code":"unacceptableStatusCode","message":"status 404 Not Found is not acceptable""#))
        #expect(result.output.contains(#""value":"café"}"#))
    }

    @Test func octetStreamIsSniffed() throws {
        let result = try CommandRunner.run(
            ["decode", "-c", "application/octet-stream"], input: Array("<a x=\"1\"/>".utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.hasPrefix(#"{"$xml":"#))
        let unknown = try CommandRunner.run(["decode", "-c", "application/octet-stream"], input: [0, 1, 2])
        #expect(unknown.status == 67)
        #expect(unknown.errorOutput.contains("application/octet-stream"))
    }

    @Test func textHonoursItsCharset() throws {
        let latin1 = try CommandRunner.run(
            ["decode", "-c", "text/plain; charset=iso-8859-1"], input: [0x63, 0x61, 0x66, 0xE9])
        #expect(latin1.output == "\"café\"\n")
        let koi8 = try CommandRunner.run(["decode", "-c", "text/plain; charset=koi8-r"], input: [0xD0, 0xD2, 0xC9])
        #expect(koi8.output == "\"при\"\n")
        let sjis = try CommandRunner.run(
            ["decode", "-c", "text/plain; charset=Shift_JIS"], input: [0x93, 0xFA, 0x96, 0x7B])
        #expect(sjis.output == "\"日本\"\n")
        let unknown = try CommandRunner.run(["decode", "-c", "text/plain; charset=x-klingon"], input: [0xC1])
        #expect(unknown.status == 67)
        let invalid = try CommandRunner.run(["decode", "-c", "text/plain"], input: [0x61, 0xFF])
        #expect(invalid.status == 65)
        #expect(invalid.errorOutput == "satchel: invalidEncoding: the text is not valid UTF-8 (at byte 1)\n")
    }

    @Test func aMalformedEmbeddedMessageIsThatPartsError() throws {
        let body = Array(
            "--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 200 OK\r\nX-Evil : 1\r\n\r\n\r\n--b--\r\n".utf8)
        let result = try CommandRunner.run(["decode", "-c", "multipart/mixed; boundary=b"], input: body)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output.contains(
                #""value":{"$error":{"code":"syntaxError","message":"an embedded HTTP header name is empty, or not a token"#
            ))
    }
}
