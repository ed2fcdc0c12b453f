import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Synchronization
import Testing

@testable import Transport

/// Requests through a unix domain socket to `satchel serve --unix PATH`: JSON, a multipart
/// upload, a download resumed with a Range request, and the failures of a missing socket.
@Suite(.timeLimit(.minutes(1)))
struct UnixSocketTests {
    let server: ServeProcess
    let session: Session

    init() throws {
        server = try ServeProcess(unixSocket: true)
        let path = try #require(server.unixSocketPath)
        session = try SessionSupport.session(URL(string: server.url)!) {
            $0.unixSocketPath = path
            // A proxy in the environment is never used for a unix socket: not even a refusing one.
            $0.proxy = .through(try! Proxy("http://127.0.0.1:9", bypass: []))
        }
    }

    @Test func jsonComesBackDecoded() async throws {
        let response = try await session.get("json")
        #expect(response.response?.status.code == 200)
        #expect(response.value?["name"] != nil || response.value != nil)
        let echo = try await session.get("echo", parameters: ["a": "1"])
        #expect(echo.value?["path"] == "/echo")
        #expect(echo.value?["query"]?["a"] == "1")
    }

    @Test func aMultipartUploadIsParsedByTheServer() async throws {
        var form = MultipartFormData()
        form.append("Ada", name: "name")
        try form.append([0, 1, 2, 255], name: "blob", filename: "blob.bin")
        let response = try await session.upload(.multipart(form), to: "echo")
        let parts = try #require(response.value?["body"]?["$multipart"]?.arrayValue)
        #expect(parts.count == 2)
        #expect(parts.first?["name"] == "name" && parts.first?["value"] == "Ada")
        #expect(parts.last?["size"] == 4)
    }

    /// A download interrupted by a cancellation resumes with a Range request over the socket
    /// (the first is held to 4 MiB/s, so the cancellation comes long before its end).
    @Test func aDownloadResumes() async throws {
        let destination = SessionSupport.temporaryPath("unix.bin")
        defer { unlink(destination) }
        defer { unlink(destination + ".part") }
        let size = 32 << 20
        let path = try #require(server.unixSocketPath)
        let slow = try SessionSupport.session(URL(string: server.url)!) {
            $0.unixSocketPath = path
            $0.progressInterval = .milliseconds(1)
            $0.rateLimit.download = 4 << 20
        }
        let halfway = Mutex(false)
        let task = Task {
            try await slow.download("bytes/\(size)", to: destination) { progress in
                if progress.downloadedBytes > 1 << 20 { halfway.withLock { $0 = true } }
            }
        }
        while !halfway.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        let first = await task.result
        #expect((try? first.get()) == nil)
        let resumed = try await session.download("bytes/\(size)", to: destination)
        #expect(resumed.resumedFrom > 0)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(bytes.count == size)
        #expect(bytes == SessionSupport.serveBytes(0..<size))
    }

    @Test func aMissingSocketCannotConnect() async throws {
        let nowhere = try SessionSupport.session(URL(string: "http://localhost")!) {
            $0.unixSocketPath = "/nonexistent/satchel.sock"
        }
        let response = await nowhere.response(for: SessionRequest(.get, "json"))
        #expect(response.failure?.code == .cannotConnect, "\(String(describing: response.failure))")
        #expect(response.failure?.message.contains("/nonexistent/satchel.sock") == true)
    }
}
