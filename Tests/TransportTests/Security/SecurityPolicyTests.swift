// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Each trust mode against gunicorn TLS servers with certificates made at test time (trustme):
/// CA "A" signs a good, an expired and a wrong-host certificate; CA "B" is unrelated.
@Suite(.hangGuard)
struct SecurityPolicyTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    private func get(_ base: URL, _ policy: SecurityPolicy) async throws -> Result<DataResponse, SatchelError> {
        let session = try SessionSupport.session(base) { $0.securityPolicy = policy }
        return await session.result(for: SessionRequest(.get, "get"))
    }

    private func certificates(_ url: URL) throws -> [PinnedCertificate] {
        try PinnedCertificate.certificates(contentsOf: url.path)
    }

    @Test func systemTrustRejectsTheTestCAAndTheTestCAAsAnchorPasses() async throws {
        #expect(try await get(servers.httpbinTLS, .default).error?.code == .tlsFailure)
        let anchored = try await get(servers.httpbinTLS, .certificateAuthorities(path: servers.certificates.caA.path))
        #expect(anchored.error == nil)
        #expect(anchored.response?.response.status.code == 200)
        let wrongAnchor = try await get(
            servers.httpbinTLS, .certificateAuthorities(path: servers.certificates.caB.path))
        #expect(wrongAnchor.error?.code == .tlsFailure)
    }

    @Test func certificatePinningPassesWithTheIssuingCAOrTheLeafAndFailsWithAnotherCA() async throws {
        #expect(
            try await get(servers.httpbinTLS, .pinnedCertificates(certificates(servers.certificates.caA))).error == nil)
        #expect(
            try await get(servers.httpbinTLS, .pinnedCertificates(certificates(servers.certificates.good))).error == nil
        )
        let other = try await get(servers.httpbinTLS, .pinnedCertificates(certificates(servers.certificates.caB)))
        #expect(other.error?.code == .tlsFailure)
    }

    @Test func publicKeyPinningMatchesTheServerKeyOnly() async throws {
        var policy = SecurityPolicy.publicKeys([servers.pins.good])
        policy.certificateAuthoritiesPath = servers.certificates.caA.path
        #expect(try await get(servers.httpbinTLS, policy).error == nil)
        let fromCertificate = SecurityPolicy.publicKeys(of: try certificates(servers.certificates.good))
        #expect(fromCertificate.pinnedPublicKeyHashes == [servers.pins.good])
        var wrong = SecurityPolicy.publicKeys([servers.pins.caB])
        wrong.certificateAuthoritiesPath = servers.certificates.caA.path
        let rejected = try await get(servers.httpbinTLS, wrong)
        #expect(rejected.error?.code == .tlsFailure)
        // libcurl checks the leaf only: the issuing CA's key is not enough (Sources/Satchel/Satchel.docc/Sessions.md).
        var caKey = SecurityPolicy.publicKeys([servers.pins.caA])
        caKey.certificateAuthoritiesPath = servers.certificates.caA.path
        #expect(try await get(servers.httpbinTLS, caKey).error?.code == .tlsFailure)
    }

    @Test func hostNameMismatchFailsUnlessDomainValidationIsOff() async throws {
        let strict = try await get(servers.wrongHostTLS, .certificateAuthorities(path: servers.certificates.caA.path))
        #expect(strict.error?.code == .tlsFailure)
        var relaxed = SecurityPolicy.certificateAuthorities(path: servers.certificates.caA.path)
        relaxed.validatesDomainName = false
        #expect(try await get(servers.wrongHostTLS, relaxed).error == nil)
    }

    @Test func expiredCertificatesFailUnlessInvalidOnesAreAllowed() async throws {
        let strict = try await get(servers.expiredTLS, .pinnedCertificates(certificates(servers.certificates.caA)))
        #expect(strict.error?.code == .tlsFailure)
        var allowed = SecurityPolicy.pinnedCertificates(
            try certificates(servers.certificates.caA) + certificates(servers.certificates.expired))
        allowed.allowInvalidCertificates = true
        #expect(try await get(servers.expiredTLS, allowed).error == nil)
        #expect(try await get(servers.expiredTLS, .disabled).error == nil)
    }

    @Test func allowingInvalidCertificatesWithPinningStillNeedsAPinnedCertificateInTheChain() async throws {
        var policy = SecurityPolicy.pinnedCertificates(try certificates(servers.certificates.caB))
        policy.allowInvalidCertificates = true
        let response = try await get(servers.expiredTLS, policy)
        #expect(response.error?.code == .tlsFailure)
        #expect(response.error?.message.contains("pinned") == true)
    }

    @Test func afnetworkingRulesRejectUnsafePoliciesBeforeSending() async throws {
        var selfSigned = SecurityPolicy()
        selfSigned.allowInvalidCertificates = true
        let rule = try await get(servers.httpbinTLS, selfSigned)
        #expect(rule.error?.code == .invalidArgument)
        #expect(rule.response == nil)
        let plain = try await get(servers.httpbin, .publicKeys([servers.pins.good]))
        #expect(plain.error?.code == .invalidArgument)
        #expect(plain.error?.message.contains("https") == true)
        let empty = try await get(servers.httpbinTLS, .pinnedCertificates([]))
        #expect(empty.error?.code == .invalidArgument)
    }

    @Test func pinnedCertificatesParseAndRejectGarbage() throws {
        let parsed = try certificates(servers.certificates.good)
        #expect(parsed.count >= 1)
        #expect(parsed[0].publicKeySHA256 == servers.pins.good)
        let again = try PinnedCertificate.certificates(pem: parsed[0].pem)
        #expect(again == [parsed[0]])
        #expect(throws: SatchelError.self) { try PinnedCertificate.certificates(pem: "no certificate here") }
        #expect(throws: SatchelError.self) {
            try PinnedCertificate.certificates(pem: "-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n")
        }
        for cut in [0, 1, 2, 10, parsed[0].der.count / 2] {
            #expect(throws: SatchelError.self) { try PinnedCertificate(der: Array(parsed[0].der.prefix(cut))) }
        }
        #expect(throws: SatchelError.self) { try PinnedCertificate(der: [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: SatchelError.self) { try PinnedCertificate.certificates(contentsOf: "/nonexistent/cert.pem") }
    }
}
