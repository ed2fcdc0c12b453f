// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Synchronization
import Testing

@testable import Transport

/// Requests against httpbin under gunicorn on 127.0.0.1: httpbin parses what Satchel sends.
@Suite(.hangGuard)
struct SessionHTTPBinTests {
    let servers: TestServers
    let session: Session

    init() throws {
        servers = try TestServers.shared()
        session = try SessionSupport.session(servers.httpbin)
    }

    @Test func getPutsParametersInTheQueryAndDecodesJSON() async throws {
        let response = try await session.get("get", parameters: ["b": "2 3", "a": ["x", "y"]])
        #expect(response.response.status.code == 200)
        #expect(response.serializerName == "json")
        let args = response.value?["args"]
        #expect(args?["b"]?.stringValue == "2 3")
        #expect(args?["a[]"]?.arrayValue?.compactMap(\.stringValue) == ["x", "y"])
        #expect(response.url.hasSuffix("/get?a%5B%5D=x&a%5B%5D=y&b=2%203"))
    }

    @Test(arguments: [HTTPRequest.Method.head, .delete])
    func headAndDeletePutParametersInTheQuery(method: HTTPRequest.Method) async throws {
        let path = method == .head ? "get" : "delete"
        let response = try await session.send(SessionRequest(method, path, parameters: ["q": "1"]))
        #expect(response.response.status.code == 200)
        #expect(response.url.hasSuffix("?q=1"))
        if method == .delete { #expect(response.value?["args"]?["q"]?.stringValue == "1") }
        if method == .head { #expect(response.body.isEmpty && response.value == nil) }
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .patch])
    func bodyMethodsSendAFormBody(method: HTTPRequest.Method) async throws {
        let response = try await session.send(
            SessionRequest(
                method, method.rawValue.lowercased(), parameters: ["name": "Ada Lovelace", "tags": ["a", "b"]]))
        let value = try #require(response.value)
        #expect(value["form"]?["name"]?.stringValue == "Ada Lovelace")
        #expect(value["form"]?["tags[]"]?.arrayValue?.compactMap(\.stringValue) == ["a", "b"])
        #expect(value["headers"]?["Content-Type"]?.stringValue == "application/x-www-form-urlencoded")
        #expect(value["args"]?.objectValue?.isEmpty == true)
    }

    @Test func jsonBodiesAreEchoed() async throws {
        let json = try SessionSupport.session(servers.httpbin, requestSerializer: JSONRequestSerializer())
        let response = try await json.post("post", parameters: ["n": 42, "nested": ["ok": true]])
        #expect(response.value?["json"]?["n"]?.int64Value == 42)
        #expect(response.value?["json"]?["nested"]?["ok"]?.boolValue == true)
        #expect(response.value?["headers"]?["Content-Type"]?.stringValue?.hasPrefix("application/json") == true)
    }

    @Test func multipartFilesAreParsedByHTTPBin() async throws {
        let path = SessionSupport.temporaryPath("upload.txt")
        try Data("file contents\nline 2\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var form = MultipartFormData()
        form.append("field value", name: "field")
        try form.append(fileAt: path, name: "document", mediaType: MediaType(parsing: "text/plain"))
        try form.append([0, 1, 2, 255], name: "blob", filename: "blob.bin")
        let response = try await session.upload(.multipart(form), to: "post")
        #expect(response.value?["form"]?["field"]?.stringValue == "field value")
        #expect(response.value?["files"]?["document"]?.stringValue == "file contents\nline 2\n")
        #expect(
            response.value?["files"]?["blob"]?.stringValue?.hasPrefix("data:application/octet-stream;base64,AAEC/w==")
                == true)
        let length = response.value?["headers"]?["Content-Length"]?.stringValue.flatMap { Int($0) }
        #expect(length == (try form.bytes()).count)
    }

    @Test func rawBodiesFromMemoryAndStreamsOfUnknownLengthAreSent() async throws {
        let bytes = Array("raw body".utf8)
        let posted = try await session.upload(.bytes(bytes, contentType: .plainText), to: "anything")
        #expect(posted.value?["data"]?.stringValue == "raw body")
        #expect(posted.value?["headers"]?["Content-Type"]?.stringValue == "text/plain")
        let chunked = try await session.upload(
            .stream(contentType: .plainText) { UnknownLengthStream(bytes) }, to: "anything")
        #expect(chunked.value?["headers"]?["Transfer-Encoding"]?.stringValue == "chunked")
        #expect(chunked.value?["data"]?.stringValue == "raw body")
    }

    @Test func unacceptableStatusCarriesTheResponseAndDecodedBody() async throws {
        do {
            _ = try await session.get("status/418")
            Issue.record("418 was accepted")
        } catch {
            // httpbin's teapot has no Content-Type: the type is reported first, as AFNetworking does.
            #expect(error.code == .unacceptableContentType)
            #expect(error.response?.status.code == 418)
            #expect(error.body.map { String(decoding: $0, as: UTF8.self).contains("teapot") } == true)
        }
        let response = try await session.result(for: SessionRequest(.get, "status/500")).get()
        #expect(response.error?.code == .unacceptableStatusCode)
        #expect(response.response.status.code == 500)
    }

    @Test func basicAuthentication() async throws {
        var request = SessionRequest(.get, "basic-auth/ada/s3cret")
        request.authenticate(username: "ada", password: "s3cret")
        let response = try await session.send(request)
        #expect(response.value?["authenticated"]?.boolValue == true)
        request.authenticate(username: "ada", password: "wrong")
        let rejected = try await session.result(for: request).get()
        #expect(rejected.response.status.code == 401)
    }

    @Test(arguments: ["gzip", "deflate", "brotli"])
    func compressedResponsesAreDecoded(encoding: String) async throws {
        let response = try await session.get(encoding)
        #expect(
            response.value?[encoding == "brotli" ? "brotli" : (encoding == "gzip" ? "gzipped" : "deflated")]?.boolValue
                == true)
    }

    @Test func redirectsAreFollowedAndCounted() async throws {
        let monitor = RecordingMonitor()
        let session = try SessionSupport.session(servers.httpbin) { $0.eventMonitors = [monitor] }
        let response = try await session.get("redirect/3")
        #expect(response.response.status.code == 200)
        #expect(response.metrics.redirectCount == 3)
        #expect(response.url.hasSuffix("/get"))
        let events = monitor.events.withLock { $0 }
        #expect(events.filter { $0.hasPrefix("redirect") }.count == 3)
        #expect(events.first == "start GET" && events.last == "complete 200")
    }

    @Test func a307RedirectResendsMethodAndBodyAnd302TurnsPostIntoGet() async throws {
        let kept = try await session.post("redirect-to?url=/post&status_code=307", parameters: ["k": "v"])
        #expect(kept.value?["form"]?["k"]?.stringValue == "v")
        let made = Mutex(0)
        let rewound = try await session.upload(
            .stream(contentType: .plainText) {
                made.withLock { $0 += 1 }
                return ByteBodyStream(Array("streamed".utf8))
            }, to: "redirect-to?url=/post&status_code=308")
        #expect(made.withLock { $0 } == 2, "a stream for the first send and one for the redirect")
        #expect(rewound.value?["data"]?.stringValue == "streamed")
        let changed = try await session.post("redirect-to?url=/get&status_code=302", parameters: ["k": "v"])
        #expect(changed.request.method == .get)
        #expect(changed.value?["url"]?.stringValue?.hasSuffix("/get") == true)
    }

    @Test func redirectLimitsAndNoFollow() async throws {
        let limited = try SessionSupport.session(servers.httpbin) { $0.redirectPolicy = .follow(maximumRedirects: 2) }
        await #expect(throws: SatchelError.self) { _ = try await limited.get("redirect/3") }
        let error = try await limited.result(for: SessionRequest(.get, "redirect/3")).get().error
        #expect(error?.code == .tooManyRedirects)
        let none = try SessionSupport.session(servers.httpbin) { $0.redirectPolicy = .none }
        let response = try await none.result(for: SessionRequest(.get, "redirect/1")).get()
        #expect(response.response.status.code == 302)
        #expect(response.error?.code == .unacceptableStatusCode)
    }

    @Test func requestTimeoutEndsASlowResponse() async throws {
        var request = SessionRequest(.get, "delay/5")
        request.timeouts = TransferTimeouts(connect: .seconds(5), request: .milliseconds(500), idle: nil)
        let response = await session.result(for: request)
        #expect(response.error?.code == .timedOut)
    }

    @Test func streamedBytesArriveWhole() async throws {
        // httpbin seeds Python's shared random generator, so the bytes themselves are only
        // reproducible without concurrent requests; the loopback tests compare contents.
        let stream = try await session.bytes("stream-bytes/60000?seed=7&chunk_size=1000")
        #expect(stream.response.status.code == 200)
        #expect(stream.response.headerFields[.contentLength] == nil)  // chunked
        var received = 0
        for try await chunk in stream { received += chunk.count }
        #expect(received == 60000)
    }

    @Test func imagesAndXMLAreDecodedByTheRegistry() async throws {
        let png = try await session.get("image/png")
        #expect(png.serializerName == "image")
        #expect((png.value?.image)?.width ?? 0 > 0)
        let xml = try await session.get("xml")
        #expect(xml.serializerName == "xml")
        #expect(xml.value?.payloadValue is XMLDocumentPayload)
    }

    @Test func cancellingTheTaskEndsTheTransfer() async throws {
        let task = session.task(for: SessionRequest(.get, "delay/10"))
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        #expect(await task.result.error?.code == .cancelled)
        let swiftTask = Task { await session.result(for: SessionRequest(.get, "delay/10")) }
        try await Task.sleep(for: .milliseconds(200))
        swiftTask.cancel()
        #expect(await swiftTask.value.error?.code == .cancelled)
    }

    @Test func decodableResponses() async throws {
        struct Slideshow: Decodable { let slideshow: Show; struct Show: Decodable { let title: String } }
        let show = try await session.get("json").decode(Slideshow.self)
        #expect(show.slideshow.title == "Sample Slide Show")
    }

    @Test func batchKeepsOrderAndFailures() async throws {
        let progress = RecordingMonitor()
        let requests = [
            SessionRequest(.get, "get?i=0"), SessionRequest(.get, "status/404"), SessionRequest(.get, "get?i=2"),
        ]
        let responses = await session.batch(requests) { update in
            progress.events.withLock { $0.append("\(update.completed)/\(update.total)") }
        }
        #expect(responses.count == 3)
        #expect(responses[0].response?.value?["args"]?["i"]?.stringValue == "0")
        #expect(responses[1].error?.code == .unacceptableStatusCode)
        #expect(responses[2].response?.value?["args"]?["i"]?.stringValue == "2")
        #expect(progress.events.withLock { $0 }.sorted() == ["1/3", "2/3", "3/3"])
    }
}

/// A body stream that does not know its length (sent chunked).
final class UnknownLengthStream: BodyStream {
    private let inner: ByteBodyStream
    init(_ bytes: [UInt8]) { inner = ByteBodyStream(bytes) }
    var length: Int64? { nil }
    var isRewindable: Bool { true }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try inner.read(into: buffer) }
    func rewind() throws { try inner.rewind() }
}
