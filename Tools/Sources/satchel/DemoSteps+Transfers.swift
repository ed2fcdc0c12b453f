// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel

extension DemoSteps {
    /// Uploads a generated file as a multipart part, streamed from disk with a progress bar;
    /// the server parses the parts with Satchel's multipart parser and reports their sizes.
    @Sendable func multipartUpload() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-demo-\(UUID().uuidString).bin"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeGeneratedFile(at: path, size: uploadSize)
        var form = MultipartFormData()
        form.append("demo upload", name: "note")
        try form.append(fileAt: path, name: "file", filename: "generated.bin", mediaType: .octetStream)
        let stream = try form.makeBodyStream()
        reporter.sent(
            "POST /echo  Content-Type: \(form.contentType)  (\(ProgressBar.bytes(stream.length ?? 0)) in 2 parts, streamed from disk)"
        )
        let bar = showsProgress ? ProgressBar() : nil
        let response = try await session().upload(.multipart(form), to: "echo") { bar?.update($0) }
        bar?.finish()
        let echoed = try echoedBody(response)
        reporter.got(statusLine(response), value: ["body": echoed])
        let sizes = echoed["$multipart"]?.arrayValue?.compactMap { $0["size"]?.int64Value } ?? []
        try check(sizes == [11, Int64(uploadSize)], "the server saw parts of \(sizes) bytes")
        return "the server parsed 2 parts of 11 bytes and \(ProgressBar.bytes(Int64(uploadSize))); both sides streamed"
    }

    /// Writes `size` deterministic bytes to `path` in 1 MiB pieces.
    static func writeGeneratedFile(at path: String, size: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw DemoFailure("cannot create \(path)")
        }
        defer { try? handle.close() }
        var written = 0
        while written < size {
            let count = min(1 << 20, size - written)
            try handle.write(contentsOf: Data((0..<count).map { UInt8((written + $0) % 251) }))
            written += count
        }
    }

    /// Sends a batch of three requests in one multipart/mixed body and decodes the answer part
    /// by part: each part an HTTP response with its own status and body.
    @Sendable func batch() async throws -> String {
        var form = MultipartFormData(subtype: .mixed)
        let requests = ["GET /json HTTP/1.1", "GET /plist HTTP/1.1", "GET /status/404 HTTP/1.1"]
        for (index, line) in requests.enumerated() {
            try form.append(
                MultipartPart(
                    mediaType: MediaType(type: "application", subtype: "http"),
                    headers: [.init(name: "Content-ID", value: "<part-\(index)>")],
                    body: .bytes(Array("\(line)\r\nHost: demo\r\n\r\n".utf8))))
        }
        reporter.sent("POST /batch  Content-Type: \(form.contentType)", body: requests.joined(separator: "\n"))
        let session = try session()
        let response = try await session.upload(.multipart(form), to: "batch")
        reporter.got(statusLine(response), value: response.value)
        guard case .payload(let parts as MultipartParts)? = response.value else {
            throw DemoFailure("the batch answer did not decode to parts")
        }
        let statuses = parts.map { element -> Int in
            guard case .payload(let message as EmbeddedHTTPMessage) = element.value else { return 0 }
            return message.status ?? 0
        }
        try check(statuses == [200, 200, 404], "the parts answered \(statuses)")
        return
            "3 parts, statuses \(statuses.map(String.init).joined(separator: ", ")), each body decoded by its own Content-Type"
    }

    /// Downloads /bytes/N with the server told to cut the connection halfway, then downloads
    /// again: the second transfer asks for the rest with Range + If-Range and appends it.
    @Sendable func resumedDownload() async throws -> String {
        let size = 8 << 20
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-demo-\(UUID().uuidString).bin"
        ).path
        defer {
            for path in [
                destination, ResumeData.partialPath(for: destination), ResumeData.recordPath(for: destination),
            ] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        let session = try session()
        var cut: HTTPFields = [:]
        cut[HTTPField.Name("X-Satchel-Cut-After")!] = String(size / 2)
        reporter.sent("GET /bytes/\(size)  X-Satchel-Cut-After: \(size / 2)  (the server drops the connection halfway)")
        do {
            _ = try await session.download("bytes/\(size)", to: destination, headers: cut)
            throw DemoFailure("the first download was not cut")
        } catch let error as SatchelError {
            reporter.got("\(error.code): \(error.message)")
        }
        let partial =
            (try? FileManager.default.attributesOfItem(atPath: ResumeData.partialPath(for: destination))[.size] as? Int)
            ?? 0
        reporter.note(
            "\(ProgressBar.bytes(Int64(partial))) kept in \(ResumeData.partialPath(for: destination).split(separator: "/").last ?? "")"
        )
        try check(partial > 0, "nothing was kept from the cut download")
        reporter.sent("GET /bytes/\(size)  Range: bytes=\(partial)-  If-Range: \"bytes-\(size)\"")
        let bar = showsProgress ? ProgressBar() : nil
        let download = try await session.download("bytes/\(size)", to: destination) { bar?.update($0) }
        bar?.finish()
        reporter.got(
            "\(download.response.status.code) \(download.response.status.reasonPhrase), resumed from byte \(download.resumedFrom), file \(download.fileSize) bytes"
        )
        try check(
            download.resumedFrom == Int64(partial),
            "the download restarted from \(download.resumedFrom) instead of \(partial)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: destination))
        try check(
            bytes.count == size && bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) },
            "the file is not the server's \(size) bytes")
        return
            "206 Partial Content from byte \(partial); the file is byte-for-byte the server's \(ProgressBar.bytes(Int64(size)))"
    }

    /// Talks to the TLS server with its public key pinned, then shows the failures a wrong pin
    /// and the system trust store give.
    @Sendable func pinnedTLS() async throws -> String {
        guard let identity = secureServer.tlsIdentity else { throw DemoFailure("the TLS server has no identity") }
        var pinned = SecurityPolicy.publicKeys([identity.publicKeySHA256])
        pinned.certificateAuthoritiesPath = identity.certificateAuthorityPath
        reporter.sent("GET \(secureServer.baseURL)/json  pinned to \(identity.publicKeyPin)")
        let response = try await session(secureServer.baseURL, policy: pinned).get("json")
        reporter.got(statusLine(response))
        try check(response.value?.objectValue != nil, "the pinned request did not decode")

        var wrong = SecurityPolicy.publicKeys([String(repeating: "A", count: 43) + "="])
        wrong.certificateAuthoritiesPath = identity.certificateAuthorityPath
        let refusals: [(String, SecurityPolicy)] = [("another key's pin", wrong), ("the system trust store", .default)]
        for (label, policy) in refusals {
            reporter.sent("GET \(secureServer.baseURL)/json  with \(label)")
            do {
                _ = try await session(secureServer.baseURL, policy: policy).get("json")
                throw DemoFailure("the request with \(label) was not refused")
            } catch let error as SatchelError {
                try check(
                    error.code == .tlsFailure, "the request with \(label) failed with \(error.code), not tlsFailure")
                reporter.got("refused as it should be: \(error.message)")
            }
        }
        return "the pinned request worked; a wrong pin and an untrusted certificate were refused"
    }
}
