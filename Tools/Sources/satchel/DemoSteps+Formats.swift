// SPDX-License-Identifier: Apache-2.0
import Satchel

extension DemoSteps {
    /// POST a form; the server decodes it with Satchel's form serializer and echoes it.
    @Sendable func form() async throws -> String {
        let parameters: Value = ["name": "Ann Lee", "tags": ["swift", "c/c++"], "page": 2, "draft": nil]
        let session = try session()
        let (body, contentType) = try session.registry.encode(parameters, as: .formURLEncoded)
        reporter.sent("POST /echo  Content-Type: \(contentType)", body: String(decoding: body, as: UTF8.self))
        let response = try await session.post("echo", parameters: parameters)
        let echoed = try echoedBody(response)
        reporter.got(statusLine(response), value: ["body": echoed])
        try check(echoed["name"] == "Ann Lee", "the server read name as \(echoed["name"].map { "\($0)" } ?? "nothing")")
        try check(
            echoed["tags"] == ["swift", "c/c++"],
            "the server read tags as \(echoed["tags"].map { "\($0)" } ?? "nothing")")
        return "the server decoded the same fields (nested arrays as tags[], values as strings)"
    }

    /// POST JSON; integers keep their exact value both ways.
    @Sendable func json() async throws -> String {
        let parameters: Value = [
            "id": .unsignedInteger(18_446_744_073_709_551_615), "name": "café", "scores": [1.5, -2],
        ]
        let session = try session()
        var request = SessionRequest(.post, "echo", parameters: parameters)
        request.requestSerializer = JSONRequestSerializer()
        reporter.sent("POST /echo  Content-Type: application/json", body: parameters.canonicalJSON())
        let response = try await session.send(request)
        let echoed = try echoedBody(response)
        reporter.got(statusLine(response), value: ["body": echoed])
        try check(echoed == parameters, "the echo differs: \(echoed.canonicalJSON())")
        let document = try await session.get("json")
        reporter.sent("GET /json")
        reporter.got(statusLine(document), value: document.value)
        try check(document.value?.objectValue != nil, "/json did not decode to an object")
        return
            "the echo is identical, 18446744073709551615 included; /json decoded (\(document.serializerName ?? "?") serializer)"
    }

    /// GET the fixture document as an XML and as a binary property list.
    @Sendable func propertyLists() async throws -> String {
        let session = try session()
        reporter.sent("GET /plist")
        let xml = try await session.get("plist")
        reporter.got(statusLine(xml), value: xml.value)
        reporter.sent("GET /plist-binary")
        let binary = try await session.get("plist-binary")
        reporter.got(statusLine(binary))
        try check(xml.value != nil && xml.value == binary.value, "the two formats decoded to different values")
        try check(binary.body.starts(with: Array("bplist00".utf8)), "/plist-binary is not a binary property list")
        return
            "both formats decode to the same value (\(xml.body.count) bytes of XML, \(binary.body.count) bytes binary)"
    }

    /// GET the document as XML and query it with XPath.
    @Sendable func xml() async throws -> String {
        let session = try session()
        reporter.sent("GET /xml")
        let response = try await session.get("xml")
        reporter.got(statusLine(response), value: response.value)
        guard case .payload(let payload as XMLDocumentPayload)? = response.value else {
            throw DemoFailure("/xml did not decode to an XML document")
        }
        let elements = try payload.nodes(xpath: "/*/*")
        reporter.note("XPath /*/* selects \(elements.count) elements under the root")
        try check(!elements.isEmpty, "the XPath query selected nothing")
        return "libxml2 parsed the tree (no network, no external entities) and XPath found \(elements.count) elements"
    }

    /// GET a PNG and a JPEG and decode their pixels.
    @Sendable func images() async throws -> String {
        let session = try session()
        var summaries: [String] = []
        for (path, format) in [("png", ImageFormat.png), ("jpeg", ImageFormat.jpeg)] {
            reporter.sent("GET /\(path)")
            let response = try await session.get(path)
            reporter.got(statusLine(response), value: response.value)
            guard case .payload(let image as DecodedImage)? = response.value else {
                throw DemoFailure("/\(path) did not decode to an image")
            }
            try check(
                image.format == format && image.pixels.count == image.height * image.rowStride,
                "/\(path) decoded as \(image.format) with \(image.pixels.count) bytes of pixels")
            summaries.append("\(format.rawValue) \(image.width)×\(image.height)")
        }
        return "decoded " + summaries.joined(separator: " and ")
    }
}
