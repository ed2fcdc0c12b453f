// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `satchel decode` of XML and `satchel encode --as xml`, through the built binary.
@Suite struct XMLCLITests {
    static let document = "<?xml version=\"1.0\"?><r xmlns:m=\"urn:m\" id=\"1\"><m:a>x &amp; y</m:a><!--c--><b/></r>"
    static let canonical =
        #"{"$xml":{"children":[{"name":"r","namespace":null,"namespaces":{"m":"urn:m"},"attributes":{"id":"1"},"children":["#
        + #"{"name":"m:a","namespace":"urn:m","namespaces":{},"attributes":{},"children":["x & y"]},{"comment":"c"},"#
        + #"{"name":"b","namespace":null,"namespaces":{},"attributes":{},"children":[]}]}]}}"# + "\n"

    @Test(arguments: [
        ["decode", "-c", "application/xml"], ["decode", "-c", "text/xml; charset=utf-8", "--xml-events"],
        ["decode", "-c", "application/atom+xml"],
    ])
    func decodePrintsCanonicalJSON(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments, input: Array(Self.document.utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == Self.canonical)
    }

    @Test func decodeWithXPath() throws {
        let result = try CommandRunner.run(
            ["decode", "-c", "application/xml", "--xpath", "//n:a | //@id", "--namespace", "n=urn:m"],
            input: Array(Self.document.utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output
                == #"["1",{"name":"m:a","namespace":"urn:m","namespaces":{},"attributes":{},"children":["x & y"]}]"#
                + "\n")
        let bad = try CommandRunner.run(
            ["decode", "-c", "application/xml", "--xpath", "//["], input: Array(Self.document.utf8))
        #expect(bad.status == 65)
        #expect(bad.errorOutput.hasPrefix("satchel: syntaxError: XPath"))
    }

    @Test func decodeErrorsExitWithTheirCodes() throws {
        let truncated = try CommandRunner.run(["decode", "-c", "application/xml"], input: Array("<r><a>".utf8))
        #expect(truncated.status == 65)
        #expect(truncated.errorOutput.hasPrefix("satchel: truncatedInput:"))
        #expect(truncated.errorOutput.contains("line 1"))
        #expect(truncated.output.isEmpty)
        let xxe = try CommandRunner.run(
            ["decode", "-c", "application/xml"],
            input: Array("<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>".utf8))
        #expect(xxe.status == 67)
        #expect(!xxe.output.contains("root:") && !xxe.errorOutput.contains("root:"))
        let bomb = try CommandRunner.run(
            ["decode", "-c", "text/xml", "--max-entity-expansions", "3"],
            input: Array("<!DOCTYPE r [<!ENTITY e \"x\">]><r>&e;&e;&e;&e;</r>".utf8))
        #expect(bomb.status == 68)
        #expect(bomb.errorOutput.contains("Limits.maxEntityExpansions (3)"))
        let empty = try CommandRunner.run(["decode", "-c", "application/xml"], input: Array("  \n".utf8))
        #expect(empty.status == 0 && empty.output.isEmpty)
    }

    /// Bytes that do not convert: one line of ours on stderr, none of libxml2's ("encoding
    /// error : input conversion failed…", "I/O error : encoder error"), in both forms.
    @Test func bytesThatDoNotConvertAreOneErrorLine() throws {
        let body = Array(#"<?xml version="1.0" encoding="UTF-7"?><root><a"#.utf8) + [0xE8] + Array("ild/></root>".utf8)
        for type in ["application/xml", "application/xml; charset=us-ascii"] {
            for form in [[], ["--xml-events"]] {
                let result = try CommandRunner.run(["decode", "-c", type] + form, input: body)
                #expect(result.status == 65, "\(type), \(form): \(result.errorOutput)")
                #expect(
                    result.errorOutput.hasPrefix("satchel: invalidEncoding: the body does not convert"),
                    "\(result.errorOutput)")
                #expect(result.errorOutput.split(separator: "\n").count == 1, "\(type), \(form): \(result.errorOutput)")
                #expect(result.output.isEmpty)
            }
        }
    }

    @Test func encodeRoundTripsTheCanonicalForm() throws {
        let encoded = try CommandRunner.run(["encode", "--as", "xml"], input: Array(Self.canonical.utf8))
        #expect(encoded.status == 0, "\(encoded.errorOutput)")
        #expect(
            encoded.output
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r xmlns:m=\"urn:m\" id=\"1\"><m:a>x &amp; y</m:a><!--c--><b/></r>\n"
        )
        let decoded = try CommandRunner.run(["decode", "-c", "application/xml"], input: encoded.outputBytes)
        #expect(decoded.output == Self.canonical)
    }

    @Test func encodeMapsPlainJSON() throws {
        let result = try CommandRunner.run(
            ["encode", "--as", "xml", "--include-headers", "--root-element", "list"],
            input: Array(##"[{"@id":1,"#text":"a"},2]"##.utf8))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("Content-Type: application/xml; charset=utf-8\r\n"))
        #expect(
            result.output.hasSuffix(
                "\r\n\r\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<list><item id=\"1\">a</item><item>2</item></list>"
            ))
        let bad = try CommandRunner.run(["encode", "--as", "xml"], input: Array(#"{"a b":1}"#.utf8))
        #expect(bad.status == 65)
        #expect(bad.errorOutput.contains("unencodableValue"))
    }
}
