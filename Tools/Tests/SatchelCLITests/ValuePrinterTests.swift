// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import SatchelTestSupport
import Testing

@testable import satchel

/// The readable printer on values the registry decoded: batch and multipart bodies part by part,
/// problem details, XML, bytes and colours.
@Suite struct ValuePrinterTests {
    static let fixtures = TestServers.root.appendingPathComponent("Tests/Fixtures")

    static func decodeFixture(_ name: String) throws -> Value? {
        let base = fixtures.appendingPathComponent(name)
        let contentType = try String(contentsOf: base.appendingPathExtension("content-type"), encoding: .utf8)
        let body = Array(try Data(contentsOf: base.appendingPathExtension("body")))
        return try Registry.standard().decode(
            body, contentType: try MediaType(parsing: contentType.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func printsABatchResponsePartByPart() throws {
        let value = try Self.decodeFixture("batch/google-batch-response")
        let text = ValuePrinter(colors: false).text(for: value)
        #expect(text.hasPrefix("── part 1 of 6, 282 bytes\n"), "\(text)")
        #expect(
            text.contains(
                "Content-Type: application/http\nContent-ID: <response-8a09ca85-8d1d-4f45-9eb0-da8e8b07ec83+1>\n"))
        #expect(text.contains("  HTTP/1.1 200 OK\n  Content-Type: application/json; charset=UTF-8\n"))
        #expect(text.contains("    \"entity\": \"allUsers\","))
        #expect(text.contains("  HTTP/1.1 404 Not Found\n"))
        #expect(!text.contains("\u{1B}["))
    }

    @Test func printsFormPartsWithTheirHeaders() throws {
        let value = try Self.decodeFixture("multipart/curl-form")
        let text = ValuePrinter(colors: false).text(for: value)
        #expect(text.contains("── part 1 of "), "\(text)")
        #expect(text.contains("Content-Disposition: form-data; name="))
    }

    @Test func printsProblemDetailsAsASummary() throws {
        let value: Value = [
            "type": "https://example.com/out-of-credit", "title": "Out of credit", "status": 403,
            "detail": "Your balance is 30.", "balance": 30,
        ]
        let problem = try #require(ProblemDetails(value))
        let text = ValuePrinter(colors: false).problemSummary(problem)
        #expect(
            text == """
                Problem: Out of credit (403)
                  detail:   Your balance is 30.
                  type:     https://example.com/out-of-credit
                  {
                    "balance": 30
                  }

                """)
    }

    @Test func printsScalarsBytesAndColours() throws {
        let printer = ValuePrinter(colors: false)
        #expect(printer.text(for: .string("plain text")) == "plain text\n")
        #expect(printer.text(for: .bytes([1, 2, 3])).hasPrefix("[3 bytes of binary data not shown"))
        #expect(printer.text(for: nil) == "")
        #expect(printer.text(for: ["a": [1, true, nil]]) == "{\n  \"a\": [\n    1,\n    true,\n    null\n  ]\n}\n")
        let coloured = ValuePrinter(colors: true).highlightedJSON(#"{"k": "v", "n": -1.5, "t": true}"#)
        #expect(coloured.contains("\u{1B}[") && coloured.contains("-1.5") && coloured.contains("\"k\""))
    }

    @Test func indentsXMLFromItsCanonicalForm() throws {
        let document = try XMLDocumentPayload(
            parsing: Array(#"<a xmlns="urn:x" k="1&amp;2"><b>t</b><c/><!--n--></a>"#.utf8))
        let text = ValuePrinter(colors: false).text(for: .payload(document))
        #expect(text == "<a xmlns=\"urn:x\" k=\"1&amp;2\">\n  <b>t</b>\n  <c/>\n  <!--n-->\n</a>\n")
    }
}

extension ValuePrinterTests {
    @Test func printsAPropertyListAsJSONWithItsCanonicalForms() throws {
        let plist: Value = ["when": .date(Date(timeIntervalSince1970: 0)), "blob": .bytes([1, 2]), "n": 3]
        let body = try PropertyListRequestSerializer(format: .binary).encodeBody(plist)
        let value = try Registry.standard().decode(body, contentType: PropertyListRequestSerializer.mediaType)
        let text = ValuePrinter(colors: false).text(for: value)
        #expect(text.contains("\"when\": {\n    \"$date\": \"1970-01-01T00:00:00Z\"\n  }"), "\(text)")
        #expect(text.contains("\"$data\": \"AQI=\""))
    }
}
