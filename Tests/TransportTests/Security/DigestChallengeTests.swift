// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Digest challenges from the fast server's `/digest`, which takes any method and reports the
/// body of the request it accepted: bodies sent whole after the challenge, and challenges
/// libcurl cannot answer ending with the server's 401.
@Suite(.hangGuard)
struct DigestChallengeTests {
    let session: Session
    let credential = Credential(user: "user", password: "passwd", method: .digest)

    init() throws {
        session = try SessionSupport.session(try TestServers.shared().fast)
    }

    func hex(_ digest: [UInt8]) -> String {
        digest.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined()
    }

    func post(_ query: String, _ body: RequestBody) -> SessionRequest {
        var request = SessionRequest(.post, "digest?key=\(UUID().uuidString)&\(query)")
        request.body = body
        request.credential = credential
        return request
    }

    /// A 3 MB body streamed from a file, POSTed to a resource that answers with a challenge:
    /// the request that carries the answer carries the whole body.
    @Test(arguments: ["MD5", "SHA-256"])
    func aPostedFileIsSentWholeWithTheAnswer(algorithm: String) async throws {
        let bytes = SessionSupport.largeBytes(0..<3_000_000)
        let path = SessionSupport.temporaryPath("digest-body")
        defer { unlink(path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let response = try await session.send(
            post("algorithm=\(algorithm)", .file(path: path, contentType: .octetStream)))
        #expect(response.value?["method"] == "POST")
        #expect(response.value?["bytes"] == .integer(Int64(bytes.count)))
        #expect(response.value?["sha256"] == .string(hex(SHA256.hash(bytes))))
    }

    /// A body written from an async sequence, which can be sent only once: libcurl sends the
    /// first, unanswered request of a Digest exchange without its body, so the body goes
    /// whole with the answer.
    @Test func aStreamedBodyIsSentWholeWithTheAnswer() async throws {
        let text = (0..<2_000).map { "line \($0)\n" }.joined()
        let chunks = BodyChunks { write in
            for line in text.split(separator: "\n") { try await write(Array((line + "\n").utf8)) }
        }
        let response = try await session.send(post("algorithm=SHA-256", .chunks(chunks, contentType: .plainText)))
        #expect(response.value?["bytes"] == .integer(Int64(text.utf8.count)))
        #expect(response.value?["sha256"] == .string(hex(SHA256.hash(Array(text.utf8)))))
    }

    /// A challenge that does not parse, or names an algorithm libcurl does not know: not
    /// answered; the server's 401 is the response, after one request.
    @Test(arguments: ["malformed=1", "algorithm=SHA-512-BOGUS"])
    func anUnanswerableChallengeEndsWithThe401(query: String) async throws {
        let response = try await session.result(for: post(query, .bytes(Array("body".utf8), contentType: nil))).get()
        #expect(response.failure?.code == .unacceptableStatusCode)
        #expect(response.response.status.code == 401)
        #expect(response.value?["attempts"] == 1)
        #expect(response.failure?.description.contains("passwd") == false)
    }
}
