// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel
import XCTest

@testable import SatchelServer

/// Every fixture endpoint over real HTTP on loopback, through Transport's `Session`.
final class FixtureEndpointTests: XCTestCase {
    func testEchoShowsMethodPathQueryHeadersAndFormBody() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Fixture-Test")!] = "Yes"
            let response = try await session.result(
                for: SessionRequest(
                    .post, "echo/deeper?x=1&tags[]=a&tags[]=b", parameters: ["name": "Ada", "n": "3"], headers: headers)
            ).get()
            let echo = try ServerTestSupport.json(response)
            XCTAssertEqual(echo["method"], "POST")
            XCTAssertEqual(echo["path"], "/echo/deeper")
            XCTAssertEqual(echo["query"], ["x": "1", "tags": ["a", "b"]])
            XCTAssertEqual(echo["body"], ["n": "3", "name": "Ada"], "the form serializer sorts keys")
            let pairs = try XCTUnwrap(echo["headers"]?.arrayValue)
            XCTAssertTrue(pairs.contains(["X-Fixture-Test", "Yes"]), "\(pairs)")
            XCTAssertTrue(pairs.contains(["Content-Type", "application/x-www-form-urlencoded"]), "\(pairs)")
        }
    }

    func testEchoDecodesJSONPropertyListAndXMLBodies() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let document: Value = ["user": ["id": 7, "tags": ["x", "y"], "ratio": 0.5, "active": false, "none": nil]]
            var request = SessionRequest(.put, "anything", parameters: document)
            request.requestSerializer = JSONRequestSerializer()
            let jsonEcho = try ServerTestSupport.json(try await session.result(for: request).get())
            XCTAssertEqual(jsonEcho["body"], document)

            let date = Date(timeIntervalSince1970: 1_700_000_000)
            request = SessionRequest(.post, "echo", parameters: ["when": .date(date), "blob": .bytes([1, 2, 3])])
            request.requestSerializer = PropertyListRequestSerializer(format: .binary)
            let plistEcho = try ServerTestSupport.json(try await session.result(for: request).get())
            XCTAssertEqual(plistEcho["body"], ["when": ["$date": "2023-11-14T22:13:20Z"], "blob": ["$data": "AQID"]])

            request = SessionRequest(.post, "echo", parameters: ["note": ["@lang": "en", "#text": "hi"]])
            request.requestSerializer = XMLRequestSerializer()
            let xmlEcho = try ServerTestSupport.json(try await session.result(for: request).get())
            let root = try XCTUnwrap(xmlEcho["body"]?["$xml"]?["children"]?[0])
            XCTAssertEqual(root["name"], "note")
            XCTAssertEqual(root["attributes"]?["lang"], "en")
            XCTAssertEqual(root["children"], ["hi"])
        }
    }

    func testEchoListsMultipartPartsWithNamesTypesAndSizes() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            var form = MultipartFormData()
            form.append("Grüße", name: "greeting")
            try form.append(Array(#"{"a":[1,2]}"#.utf8), name: "meta", filename: "meta.json", mediaType: .json)
            // Larger than the multipart parser's spill threshold (1 MiB): echoed as the spilled
            // file's size rather than megabytes of base64.
            let blob = (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            try form.append(blob, name: "blob", filename: "blob.bin", mediaType: .octetStream)
            let response = try await session.result(for: SessionRequest(.post, "echo", body: .multipart(form))).get()
            let parts = try XCTUnwrap(ServerTestSupport.json(response)["body"]?["$multipart"]?.arrayValue)
            XCTAssertEqual(parts.count, 3)
            XCTAssertEqual(parts[0]["name"], "greeting")
            XCTAssertEqual(parts[0]["value"], "Grüße")
            XCTAssertEqual(parts[0]["size"], 7)
            XCTAssertEqual(parts[1]["filename"], "meta.json")
            XCTAssertEqual(parts[1]["contentType"], "application/json")
            XCTAssertEqual(parts[1]["value"], ["a": [1, 2]])
            XCTAssertEqual(parts[2]["size"], 1_500_000)
            XCTAssertEqual(parts[2]["value"]?["$file"]?["size"], 1_500_000)
        }
    }

    func testEchoShowsBytesOfAnUnknownTypeAsData() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let response = try await session.result(
                for: SessionRequest(
                    .post, "echo",
                    body: .bytes(
                        [0xDE, 0xAD, 0xBE, 0xEF], contentType: MediaType(type: "application", subtype: "x-satchel-test")
                    ))
            ).get()
            XCTAssertEqual(try ServerTestSupport.json(response)["body"], ["$data": "3q2+7w=="])
            let empty = try ServerTestSupport.json(await session.fetch("get"))
            XCTAssertEqual(empty["body"], .null)
            XCTAssertEqual(empty["query"], [:])
        }
    }

    func testFormatEndpointsServeTheDocumentInEachFormat() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let json = try await session.fetch("json")
            XCTAssertEqual(json.response.headerFields[.contentType], "application/json")
            XCTAssertEqual(try ServerTestSupport.json(json), FixtureDocument.value)
            for path in ["plist", "plist-binary"] {
                let plist = try await session.fetch(path)
                XCTAssertEqual(plist.response.headerFields[.contentType], "application/x-plist")
                XCTAssertEqual(try ServerTestSupport.json(plist), FixtureDocument.propertyListValue, path)
            }
            let binary = try await session.fetch("plist-binary")
            XCTAssertEqual(Array(binary.body.prefix(8)), Array("bplist00".utf8))
            let xml = try await session.fetch("xml")
            XCTAssertEqual(xml.response.headerFields[.contentType], "application/xml; charset=utf-8")
            let document = try XCTUnwrap(try ServerTestSupport.json(xml).xmlDocument)
            XCTAssertEqual(try document.nodes(xpath: "/fixture/owner/login")[0]["children"], ["satchel"])

            // Independent readers: Python's ElementTree, plistlib and json.
            let greeting = try ServerTestSupport.runPython(
                "import sys, xml.etree.ElementTree as E; print(E.fromstring(sys.stdin.buffer.read()).findtext('greeting'))",
                input: xml.body)
            XCTAssertEqual(greeting, "Grüße, 世界")
            for path in ["plist", "plist-binary"] {
                let summary = try ServerTestSupport.runPython(
                    "import sys, plistlib; p = plistlib.loads(sys.stdin.buffer.read())['fixture']; "
                        + "print(p['created'].isoformat(), p['thumbnail'].hex(), p['formats'], p['owner']['id'])",
                    input: (await session.fetch(path)).body)
                XCTAssertEqual(summary, "2026-01-02T03:04:05 89504e470001feff ['json', 'xml', 'plist'] 42", path)
            }
            let count = try ServerTestSupport.runPython(
                "import sys, json; print(json.load(sys.stdin)['fixture']['count'])", input: json.body)
            XCTAssertEqual(count, "3")
        }
    }

    func testImagesDecodeHereAndInPillowToTheSamePixels() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let expectedHex = FixtureImages.pixels().map { String(format: "%02x", $0) }.joined()
            for (path, format) in [("png", ImageFormat.png), ("jpeg", ImageFormat.jpeg)] {
                let response = try await session.fetch(path)
                XCTAssertEqual(response.response.headerFields[.contentType], "image/\(path)")
                let image = try XCTUnwrap(try ServerTestSupport.json(response).image, path)
                XCTAssertEqual(image.format, format)
                XCTAssertEqual([image.width, image.height], [FixtureImages.width, FixtureImages.height])
                let pillow = try ServerTestSupport.runPython(
                    "import sys, io; from PIL import Image; i = Image.open(io.BytesIO(sys.stdin.buffer.read())); "
                        + "print(i.format, i.size[0], i.size[1], i.mode, i.tobytes().hex())",
                    input: response.body)
                let fields = pillow.split(separator: " ")
                XCTAssertEqual(fields.prefix(4), [path == "png" ? "PNG" : "JPEG", "64", "48", "RGB"])
                if path == "png" {
                    XCTAssertEqual(fields.last.map(String.init), expectedHex, "lossless PNG keeps every pixel")
                }
            }
            // Deterministic: a second encoding is byte for byte the same.
            let again = try FixtureImages()
            let png = try await session.fetch("png"), jpeg = try await session.fetch("jpeg")
            XCTAssertEqual(png.body, again.png)
            XCTAssertEqual(jpeg.body, again.jpeg)
        }
    }

    func testStatusAnswersTheCodeWithAProblemFromFourHundredOn() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let teapot = try await session.fetch("status/418")
            XCTAssertEqual(teapot.response.status.code, 418)
            XCTAssertEqual(teapot.response.headerFields[.contentType], "application/problem+json")
            XCTAssertEqual(teapot.error?.code, .unacceptableStatusCode)
            XCTAssertEqual(teapot.error?.problemDetails?.status, 418)
            XCTAssertEqual(teapot.error?.problemDetails?.title, "I'm a teapot")
            let forbidden = try await session.fetch("status/403")
            XCTAssertEqual(forbidden.error?.problemDetails?.title, "Forbidden")
            let noContent = try await session.fetch("status/204")
            XCTAssertEqual(noContent.response.status.code, 204)
            XCTAssertNil(noContent.error)
            XCTAssertEqual(noContent.body, [])

            var head = SessionRequest(.head, "json")
            head.validation = ResponseValidation()
            let headResponse = try await session.result(for: head).get()
            XCTAssertEqual(headResponse.response.status.code, 200)
            XCTAssertEqual(headResponse.body, [])
            let full = try await session.fetch("json")
            XCTAssertEqual(headResponse.response.headerFields[.contentLength], String(full.body.count))
        }
    }

    func testRedirectChainsDownToGet() async throws {
        try await ServerTestSupport.withServer { server in
            let followed = try await ServerTestSupport.session(server).fetch("redirect/3")
            XCTAssertEqual(followed.response.status.code, 200)
            XCTAssertEqual(followed.url, server.baseURL + "/get")
            XCTAssertEqual(try ServerTestSupport.json(followed)["path"], "/get")

            let single = try await (try ServerTestSupport.session(server, redirects: false)).fetch("redirect/3")
            XCTAssertEqual(single.response.status.code, 302)
            XCTAssertEqual(single.response.headerFields[.location], "/redirect/2")
            let last = try await (try ServerTestSupport.session(server, redirects: false)).fetch("redirect/1")
            XCTAssertEqual(last.response.headerFields[.location], "/get")
        }
    }

    func testDelayAnswersWithTheEcho() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let echo = try ServerTestSupport.json(await session.fetch("delay/0.1?x=1"))
            XCTAssertEqual(echo["path"], "/delay/0.1")
            XCTAssertEqual(echo["query"], ["x": "1"])
        }
    }

    func testIndexListsEveryEndpoint() async throws {
        try await ServerTestSupport.withServer { server in
            let index = try ServerTestSupport.json(await ServerTestSupport.session(server).fetch(""))
            let paths = try XCTUnwrap(index["endpoints"]?.arrayValue).compactMap { $0["path"]?.stringValue }
            for path in [
                "/json", "/xml", "/plist", "/plist-binary", "/png", "/jpeg", "/batch", "/bytes/N", "/status/N",
                "/redirect/N", "/delay/S",
            ] {
                XCTAssertTrue(paths.contains(path), path)
            }
        }
    }
}
