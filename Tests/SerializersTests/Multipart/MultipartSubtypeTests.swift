// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// multipart/related, alternative and byteranges: the accessors each subtype needs.
@Suite struct MultipartSubtypeTests {
    func body(_ parts: [(headers: [String], body: String)], boundary: String = "sep") -> [UInt8] {
        var text = ""
        for part in parts {
            text += "--\(boundary)\r\n" + part.headers.map { $0 + "\r\n" }.joined() + "\r\n" + part.body + "\r\n"
        }
        return Array((text + "--\(boundary)--\r\n").utf8)
    }

    func decode(_ bytes: [UInt8], _ contentType: String) throws -> MultipartParts {
        try #require(
            try Registry.standard().decode(bytes, contentType: MediaType(parsing: contentType))?.multipartParts)
    }

    @Test func relatedFindsItsRootByStart() throws {
        let bytes = body([
            (["Content-Type: image/svg+xml", "Content-ID: <logo@example.com>"], "<svg/>"),
            (
                ["Content-Type: application/json", "Content-ID: <root@example.com>"],
                #"{"logo":"cid:logo@example.com"}"#
            ),
        ])
        let parts = try decode(
            bytes, #"multipart/related; boundary=sep; type="application/json"; start="<root@example.com>""#)
        #expect(parts.root?.value == ["logo": "cid:logo@example.com"])
        #expect(parts.part(contentID: "logo@example.com")?.part.index == 0)
        // Without start the first part is the root; a start naming nothing finds nothing.
        #expect(try decode(bytes, "multipart/related; boundary=sep").root?.part.index == 0)
        #expect(try decode(bytes, "multipart/related; boundary=sep; start=\"<none>\"").root == nil)
    }

    @Test func alternativePrefersTheLastPartThatDecoded() throws {
        let bytes = body([
            (["Content-Type: text/plain"], "plain"),
            (["Content-Type: application/json"], #"{"rich":true}"#),
            (["Content-Type: application/json"], #"{"broken":"#),
        ])
        let parts = try decode(bytes, "multipart/alternative; boundary=sep")
        #expect(parts.count == 3)
        #expect(parts.preferred?.value == ["rich": true])
        #expect(parts.mediaType?.subtype == "alternative")
    }

    @Test func byterangesCarryTheirContentRange() throws {
        let bytes = body(
            [
                (["Content-Type: text/plain", "Content-Range: bytes 0-4/26"], "abcde"),
                (["Content-Type: text/plain", "Content-Range: bytes 21-25/26"], "vwxyz"),
            ], boundary: "THIS_STRING_SEPARATES")
        let parts = try decode(bytes, "multipart/byteranges; boundary=THIS_STRING_SEPARATES")
        #expect(
            try parts.map { try $0.part.contentRange } == [
                try ContentRange(parsing: "bytes 0-4/26"), try ContentRange(parsing: "bytes 21-25/26"),
            ])
        #expect(try parts[1].part.contentRange?.range == 21...25)
        #expect(try parts[1].part.contentRange?.count == 5)
        #expect(parts.map(\.value) == ["abcde", "vwxyz"])
    }

    @Test func contentRangeGrammar() throws {
        #expect(try ContentRange(parsing: "bytes 500-999/*").completeLength == nil)
        #expect(try ContentRange(parsing: "bytes */1234").range == nil)
        #expect(try ContentRange(parsing: " bytes 0-0/1 ").description == "bytes 0-0/1")
        for bad in [
            "items 0-1/2", "bytes 0-1", "bytes 5-4/10", "bytes 0-10/10", "bytes */*", "bytes a-b/3", "bytes -1-2/3",
            "bytes 0-99999999999999999999/*",
        ] {
            let error = satchelError { try ContentRange(parsing: bad) }
            #expect(error?.code == .syntaxError, "\(bad)")
        }
    }

    @Test func onlyFormDataRequiresDispositions() throws {
        let bytes = body([(["Content-Type: text/plain"], "no disposition")])
        #expect(try decode(bytes, "multipart/mixed; boundary=sep").first?.value == "no disposition")
        let error = satchelError {
            try Registry.standard().decode(
                bytes, contentType: try MediaType(parsing: "multipart/form-data; boundary=sep"))
        }
        #expect(error?.code == .syntaxError)
    }
}
