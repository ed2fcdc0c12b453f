// SPDX-License-Identifier: Apache-2.0
import Satchel

/// The fixture endpoints of `satchel serve`, as a function from ``FixtureRequest`` to
/// ``FixtureResponse`` (so a batch can call them for each of its parts).
///
/// Every body is written or read by Satchel's own serializers through ``registry``.
struct FixtureEndpoints: Sendable {
    /// Bounds and caps.
    let configuration: FixtureServerConfiguration
    /// The serializers bodies are read and written with, obeying `configuration.limits`.
    let registry: Registry
    /// The generated `/png` and `/jpeg` images.
    let images: FixtureImages

    /// The endpoints and what they do, for `/` and Sources/Satchel/Satchel.docc/TestingWithSatchelServe.md.
    static let index: [(path: String, summary: String)] = [
        ("/", "this list"),
        (
            "/echo[/…], /anything[/…], /get",
            "any method: {method, path, query, headers, body}, the body decoded by its Content-Type"
        ),
        ("/json", "a JSON document"),
        ("/xml", "the same document as XML"),
        ("/plist", "the document as an XML property list, with a date and data"),
        ("/plist-binary", "the same property list in binary form"),
        ("/png", "a 64×48 RGB PNG (libpng)"),
        ("/jpeg", "the same picture as a baseline JPEG (libjpeg)"),
        ("/batch", "POST multipart/mixed of application/http requests: one application/http response per part"),
        (
            "/bytes/N",
            "N deterministic bytes (byte i = i % 251), streamed; Range, If-Range, ETag; ?chunked=1 for no Content-Length"
        ),
        ("/status/N", "status N (200–599); a problem+json body from 400 on"),
        ("/redirect/N", "302 to /redirect/N-1, and from /redirect/1 to /get"),
        ("/delay/S", "the echo after S seconds (at most the server's cap, 30 by default)"),
        ("/cache/N", "the JSON document with Cache-Control: public, max-age=N (fresh for N seconds)"),
        (
            "/cache",
            "the JSON document with a fixed Last-Modified and Cache-Control: no-cache; 304 for If-Modified-Since"
        ),
        ("/etag/E", "the JSON document with ETag: \"E\"; 304 for If-None-Match naming it, 412 for If-Match not"),
        (
            "/sse, /ndjson, /json-seq",
            "?count=N&interval_ms=M: N records {\"i\":I} M ms apart (5, 500); /sse resumes after Last-Event-ID, then 204"
        ),
    ]

    /// Answers `request`; never throws: a bad request is a problem response.
    ///
    /// - Parameter insideBatch: Whether the request is a part of a batch (batches do not nest).
    func respond(to request: FixtureRequest, insideBatch: Bool = false) -> FixtureResponse {
        let segments = request.pathSegments
        guard let first = segments.first else { return indexResponse() }
        let argument = segments.count == 2 ? String(segments[1]) : nil
        switch (first, segments.count) {
        case ("echo", _), ("anything", _), ("get", 1):
            return echo(request)
        case ("json", 1):
            return json()
        case ("xml", 1):
            return xml()
        case ("plist", 1):
            return propertyList(format: .xml)
        case ("plist-binary", 1):
            return propertyList(format: .binary)
        case ("png", 1):
            return FixtureResponse(contentType: "image/png", body: images.png)
        case ("jpeg", 1):
            return FixtureResponse(contentType: "image/jpeg", body: images.jpeg)
        case ("batch", 1):
            if insideBatch { return .problem(status: 400, detail: "a batch cannot contain another batch") }
            guard request.method == "POST" else {
                return .problem(
                    status: 405, detail: "/batch takes POST, not \(request.method)",
                    headers: [.init(name: "Allow", value: "POST")])
            }
            return batch(request)
        case ("bytes", 2):
            return bytes(argument ?? "", request: request, insideBatch: insideBatch)
        case ("status", 2):
            return status(argument ?? "")
        case ("redirect", 2):
            return redirect(argument ?? "")
        case ("delay", 2):
            return delay(argument ?? "", request: request)
        case ("cache", 1):
            return cacheValidatedByDate(request)
        case ("cache", 2):
            return cacheFor(argument ?? "")
        case ("etag", 2):
            return entityTagged(argument ?? "", request: request)
        case ("sse", 1), ("ndjson", 1), ("json-seq", 1):
            return records(String(first), request: request)
        default:
            return .problem(status: 404, detail: "no fixture endpoint at \(request.path); GET / lists them")
        }
    }

    /// `/`: the endpoint list as JSON.
    private func indexResponse() -> FixtureResponse {
        let endpoints = Value.array(
            Self.index.map { .object(["path": .string($0.path), "summary": .string($0.summary)]) })
        return encoded(
            ["name": "satchel serve", "endpoints": endpoints],
            as: JSONRequestSerializer(writingOptions: Self.prettyJSON))
    }

    /// JSON writing options for documents people read: indented, slashes left alone.
    static var prettyJSON: JSONWriter.Options {
        var options = JSONWriter.Options()
        options.prettyPrinted = true
        options.escapesSlashes = false
        return options
    }

    /// `value` written by `serializer`, with its Content-Type; a value it cannot write is a 500.
    func encoded(_ value: Value, as serializer: any RequestSerializer, status: Int = 200) -> FixtureResponse {
        do {
            return FixtureResponse(
                status: status, contentType: serializer.contentType.description, body: try serializer.encodeBody(value))
        } catch {
            return .problem(status: 500, detail: "cannot write the \(serializer.name) body: \(error)")
        }
    }

    /// A non-negative decimal path argument no larger than `maximum`, or `nil`.
    static func number(_ text: String, maximum: Int64) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(text)
        else { return nil }
        return value <= maximum ? value : nil
    }
}
