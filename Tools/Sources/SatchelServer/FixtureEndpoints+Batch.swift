// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FixtureEndpoints {
    /// `POST /batch`: a `multipart/mixed` body of `application/http` requests, answered with a
    /// `multipart/mixed` body of one `application/http` response per part, in order.
    ///
    /// The body is decoded by the registry (the multipart serializer, each part by the
    /// embedded-HTTP serializer, each embedded body by its own Content-Type); each request goes
    /// to the fixture endpoint its target names, as if sent alone, and its answer is written as
    /// an HTTP/1.1 message with Content-Length. A part with `Content-ID: <x>` is answered by one
    /// with `Content-ID: <response-x>`. A part that is not a request — or did not decode — gets
    /// a 400 problem response in its place; the other parts are still answered. A body that is
    /// not `multipart/mixed` or does not parse is a 400 (413 for a limit).
    func batch(_ request: FixtureRequest) -> FixtureResponse {
        let parts: MultipartParts
        do {
            guard case .bytes(let body) = request.body else {
                return .problem(status: 400, detail: "a batch cannot contain another batch")
            }
            let contentType = try MediaType(parsing: request.header("Content-Type") ?? "")
            guard contentType.type == "multipart", contentType.subtype == "mixed" else {
                return .problem(status: 400, detail: "/batch takes multipart/mixed, not \(contentType.essence)")
            }
            guard let decoded = try registry.decode(body, contentType: contentType)?.multipartParts else {
                return .problem(status: 400, detail: "the batch body has no parts")
            }
            parts = decoded
        } catch {
            return .problem(for: error, reading: "the batch body")
        }

        var reply = MultipartFormData(subtype: .mixed)
        for (index, element) in parts.enumerated() {
            let response = answer(element, index: index)
            var headers: [MultipartPart.Header] = []
            if let id = element.part.contentID {
                headers.append(.init(name: "Content-ID", value: "<response-\(Self.bareContentID(id))>"))
            }
            do {
                try reply.append(
                    MultipartPart(
                        mediaType: MediaType(type: "application", subtype: "http"), headers: headers,
                        body: .bytes(Self.message(response))))
            } catch {
                return .problem(status: 500, detail: "cannot write batch part \(index): \(error)")
            }
        }
        do {
            return FixtureResponse(
                contentType: reply.contentType.description,
                body: try reply.bytes(limit: configuration.limits.maxBodyBytes))
        } catch {
            return .problem(for: error, reading: "the batch answer")
        }
    }

    /// The fixture answer to one batch part.
    private func answer(_ element: MultipartParts.Element, index: Int) -> FixtureResponse {
        if let failure = element.value.decodingFailure {
            return .problem(for: failure.error, reading: "batch part \(index)")
        }
        guard let message = element.value.httpMessage, let method = message.method, let target = message.target else {
            return .problem(status: 400, detail: "batch part \(index) is not an application/http request")
        }
        if let failure = message.value.decodingFailure {
            return .problem(for: failure.error, reading: "the body of batch part \(index)")
        }
        let request = FixtureRequest(
            method: method, target: target, headers: message.headers, body: .decoded(message.value))
        return respond(to: request, insideBatch: true)
    }

    /// `response` as an HTTP/1.1 message: status line, headers, Content-Length, body.
    static func message(_ response: FixtureResponse) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(FixtureResponse.title(for: response.status))\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        let body: [UInt8] =
            switch response.body {
            case .bytes(let bytes): bytes
            case .generated(let range): DeterministicBytes.bytes(range)
            case .paced(let pieces, _): pieces.flatMap { $0 }  // inside a batch, all at once
            }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// A Content-ID without spaces and angle brackets.
    private static func bareContentID(_ id: String) -> String {
        var text = Substring(id).drop { $0 == " " }
        while text.last == " " { text = text.dropLast() }
        if text.hasPrefix("<"), text.hasSuffix(">"), text.count >= 2 { text = text.dropFirst().dropLast() }
        return String(text)
    }
}
