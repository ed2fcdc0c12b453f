// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

@testable import Transport

/// Requests through a unix domain socket to `satchel serve --unix PATH`: JSON, a multipart
/// upload, a download resumed with a Range request, and the failures of a missing socket.
@Suite(.hangGuard)
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
        #expect(response.response.status.code == 200)
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

    /// A download the server cuts short resumes with a Range request over the socket (the
    /// fixture server drops the connection after the bytes `X-Satchel-Cut-After` names, so the
    /// first attempt fails whatever the machine's load).
    @Test func aDownloadResumes() async throws {
        let destination = SessionSupport.temporaryPath("unix.bin")
        defer { unlink(destination) }
        defer { unlink(destination + ".part") }
        let size = 8 << 20
        let cut = 3 << 20
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Satchel-Cut-After")!] = "\(cut)"
        let first = await session.downloadResponse(
            for: SessionRequest(.get, "bytes/\(size)", headers: headers), to: destination)
        #expect(first.error?.code == .networkFailure, "\(String(describing: first.error))")
        let stored = try #require(ResumeData.stored(for: destination))
        #expect(stored.bytesOnDisk > 0 && stored.bytesOnDisk <= cut)
        let resumed = try await session.download("bytes/\(size)", to: destination)
        #expect(resumed.resumedFrom == stored.bytesOnDisk)
        #expect(resumed.request.headerFields[.range] == "bytes=\(stored.bytesOnDisk)-")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(bytes.count == size)
        #expect(bytes == SessionSupport.serveBytes(0..<size))
    }

    @Test func aMissingSocketCannotConnect() async throws {
        let nowhere = try SessionSupport.session(URL(string: "http://localhost")!) {
            $0.unixSocketPath = "/nonexistent/satchel.sock"
        }
        let response = await nowhere.result(for: SessionRequest(.get, "json"))
        #expect(response.failure?.code == .cannotConnect, "\(String(describing: response.failure))")
        #expect(response.failure?.message.contains("/nonexistent/satchel.sock") == true)
    }
}
