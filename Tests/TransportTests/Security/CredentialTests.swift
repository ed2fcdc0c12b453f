// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Credentials answered by libcurl to httpbin's challenges: Basic up front, Digest (MD5,
/// SHA-256) and `.any` after the 401, per request and from the session's per-host store, and
/// never to another origin.
@Suite(.hangGuard)
struct CredentialTests {
    let servers: TestServers
    let session: Session

    init() throws {
        servers = try TestServers.shared()
        session = try SessionSupport.session(servers.httpbin)
    }

    func request(_ path: String, _ credential: Credential?) -> SessionRequest {
        var request = SessionRequest(.get, path)
        request.credential = credential
        return request
    }

    @Test(arguments: [
        ("basic-auth/ann/s3cret", Credential.Method.basic), ("hidden-basic-auth/ann/s3cret", .basic),
        ("digest-auth/auth/ann/s3cret/MD5", .digest), ("digest-auth/auth/ann/s3cret/SHA-256", .digest),
        ("digest-auth/auth/ann/s3cret/SHA-256", .any), ("basic-auth/ann/s3cret", .any),
    ])
    func theRightPasswordIsAccepted(path: String, method: Credential.Method) async throws {
        let response = try await session.send(
            request(path, Credential(user: "ann", password: "s3cret", method: method)))
        #expect(response.response.status.code == 200)
        #expect(response.value?["authenticated"] == true)
        #expect(response.value?["user"] == "ann")
    }

    /// A wrong password: the server's last 401 is the response, with its body (libcurl gave up
    /// answering the challenge).
    @Test(arguments: [("basic-auth/ann/s3cret", Credential.Method.basic), ("digest-auth/auth/ann/s3cret/MD5", .digest)])
    func aWrongPasswordEndsWithThe401(path: String, method: Credential.Method) async throws {
        let response = try await session.result(
            for: request(path, Credential(user: "ann", password: "wrong", method: method))
        ).get()
        #expect(response.failure?.code == .unacceptableStatusCode)
        #expect(response.response.status.code == 401)
        #expect(response.response.headerFields[.wwwAuthenticate] != nil)
        #expect(response.failure?.description.contains("wrong") == false)
    }

    /// A digest challenge answered inside one transfer: a streamed response's head is the final
    /// 200, not the challenge.
    @Test func aStreamedResponseStartsWithTheAnsweredHead() async throws {
        let body = try await session.bytes(
            for: request(
                "digest-auth/auth/ann/s3cret/MD5", Credential(user: "ann", password: "s3cret", method: .digest)))
        #expect(body.response.status.code == 200)
        var bytes: [UInt8] = []
        for try await chunk in body { bytes += chunk }
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"authenticated\": true"))
    }

    @Test func theSessionsStoreAnswersForItsHostOnly() async throws {
        let port = servers.httpbin.port ?? 0
        let stored = try SessionSupport.session(servers.httpbin) {
            $0.credentials["127.0.0.1:\(port)"] = Credential(user: "ann", password: "s3cret", method: .digest)
        }
        #expect(try await stored.get("digest-auth/auth/ann/s3cret/MD5").response.status.code == 200)
        let byHost = try SessionSupport.session(servers.httpbin) {
            $0.credentials["127.0.0.1"] = Credential(user: "ann", password: "s3cret")
        }
        #expect(try await byHost.get("basic-auth/ann/s3cret").response.status.code == 200)
        let elsewhere = try SessionSupport.session(servers.httpbin) {
            $0.credentials["example.com"] = Credential(user: "ann", password: "s3cret")
        }
        let refused = try await elsewhere.result(for: SessionRequest(.get, "basic-auth/ann/s3cret")).get()
        #expect(refused.response.status.code == 401)
    }

    /// A redirect to another origin carries no credential; one to the same origin does.
    @Test func aRedirectToAnotherOriginLeavesTheCredentialBehind() async throws {
        let credential = Credential(user: "ann", password: "s3cret")
        let elsewhere = servers.fast.appendingPathComponent("echo-headers").absoluteString
        let echoed = try await session.send(request("redirect-to?url=\(elsewhere)", credential))
        #expect(echoed.value?["path"] == "/echo-headers")
        #expect(echoed.value?["headers"]?["authorization"] == nil)
        let same = try await session.send(request("redirect-to?url=/basic-auth/ann/s3cret", credential))
        #expect(same.value?["authenticated"] == true)
    }

    @Test func theDescriptionHidesThePassword() {
        let credential = Credential(user: "ann", password: "s3cret", method: .digest)
        #expect(credential.description == "Credential(user: ann, method: digest)")
        #expect(!"\(credential)".contains("s3cret"))
    }
}
