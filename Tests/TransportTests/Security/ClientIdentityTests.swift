// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Client certificates against the fast server's mutual-TLS instance, which requires one from
/// the test CA A; and per-host security policies and identities.
@Suite(.hangGuard)
struct ClientIdentityTests {
    let servers: TestServers
    let certificates: TestServers.Certificates

    init() throws {
        servers = try TestServers.shared()
        certificates = servers.certificates
    }

    func session(
        _ base: URL? = nil, _ configure: (inout SessionConfiguration) -> Void
    ) throws -> Session {
        let authority = certificates.caA.path
        return try SessionSupport.session(base ?? servers.fastMutualTLS) {
            $0.securityPolicy = .certificateAuthorities(path: authority)
            configure(&$0)
        }
    }

    var identity: ClientIdentity {
        ClientIdentity(certificate: .file(certificates.client.path), privateKey: .file(certificates.clientKey.path))
    }

    @Test func theRightIdentityIsAccepted() async throws {
        let identity = self.identity
        let response = try await session { $0.clientIdentity = identity }.get("client-certificate")
        #expect(response.value?["names"] == ["client.satchel.test"])
    }

    /// The same identity from memory, and with its key encrypted (and the passphrase).
    @Test func anIdentityInMemoryOrWithAPassphrase() async throws {
        let certificate = try String(contentsOf: certificates.client, encoding: .utf8)
        let key = try String(contentsOf: certificates.clientKey, encoding: .utf8)
        let inMemory = ClientIdentity(certificate: .pem(certificate), privateKey: .pem(key))
        #expect(
            try await session { $0.clientIdentity = inMemory }.get("client-certificate").value?["names"]
                == ["client.satchel.test"])
        let encrypted = ClientIdentity(
            certificate: .file(certificates.client.path), privateKey: .file(certificates.clientKeyEncrypted.path),
            passphrase: servers.clientKeyPassphrase)
        #expect(
            try await session { $0.clientIdentity = encrypted }.get("client-certificate").response.status.code
                == 200)
        #expect(!encrypted.description.contains(servers.clientKeyPassphrase))
        #expect(!inMemory.description.contains("BEGIN"))
        // PKCS #12, from its file and from memory; the key is in the bundle.
        let bundle = ClientIdentity(
            certificate: .file(certificates.clientBundle.path), passphrase: servers.clientKeyPassphrase, format: .pkcs12
        )
        #expect(
            try await session { $0.clientIdentity = bundle }.get("client-certificate").value?["names"]
                == ["client.satchel.test"])
        let bytes = ClientIdentity(
            certificate: .bytes(Array(try Data(contentsOf: certificates.clientBundle))),
            passphrase: servers.clientKeyPassphrase, format: .pkcs12)
        #expect(try await session { $0.clientIdentity = bytes }.get("client-certificate").response.status.code == 200)
    }

    /// Without an identity, or with one from another CA, the server ends the handshake.
    @Test func noIdentityOrAnotherCAIsRefused() async throws {
        let refused = await (try session { _ in }).result(for: SessionRequest(.get, "client-certificate"))
        #expect(refused.failure?.code == .tlsFailure && refused.response == nil)
        #expect(refused.failure?.message.contains("the server wants a client certificate it trusts") == true)
        let stranger = ClientIdentity(
            certificate: .file(certificates.clientOtherCA.path), privateKey: .file(certificates.clientOtherCAKey.path))
        let other = await (try session { $0.clientIdentity = stranger })
            .result(for: SessionRequest(.get, "client-certificate"))
        #expect(other.failure?.code == .tlsFailure && other.response == nil, "\(String(describing: other.failure))")
        #expect(other.failure?.message.contains("unknown ca") == true, "\(String(describing: other.failure))")
    }

    /// A wrong passphrase, a key that is not the certificate's, a missing file: a TLS error
    /// that says which, and never the passphrase.
    @Test func aKeyThatCannotBeLoadedIsAClearError() async throws {
        let wrong = ClientIdentity(
            certificate: .file(certificates.client.path), privateKey: .file(certificates.clientKeyEncrypted.path),
            passphrase: "not-the-passphrase")
        let response = await (try session { $0.clientIdentity = wrong })
            .result(for: SessionRequest(.get, "client-certificate"))
        #expect(response.failure?.code == .tlsFailure, "\(String(describing: response.failure))")
        #expect(response.failure?.message.contains("key") == true, "\(String(describing: response.failure))")
        #expect(response.failure?.description.contains("not-the-passphrase") == false)

        let mismatched = ClientIdentity(
            certificate: .file(certificates.client.path), privateKey: .file(certificates.clientOtherCAKey.path))
        let mismatch = await (try session { $0.clientIdentity = mismatched })
            .result(for: SessionRequest(.get, "client-certificate"))
        #expect(mismatch.failure?.code == .tlsFailure, "\(String(describing: mismatch.failure))")

        let missing = ClientIdentity(certificate: .file("/nonexistent/client.pem"), privateKey: .file("/nonexistent/k"))
        let absent = await (try session { $0.clientIdentity = missing })
            .result(for: SessionRequest(.get, "client-certificate"))
        #expect(absent.failure?.code == .tlsFailure, "\(String(describing: absent.failure))")
    }

    /// Per host: the identity and the policy for the mutual-TLS host and port; another host
    /// (httpbin over TLS) gets the defaults. A per-host policy breaks AFNetworking's rules for
    /// its host only.
    @Test func identitiesAndPoliciesPerHost() async throws {
        let identity = self.identity
        let mutual = servers.fastMutualTLS
        let key = "127.0.0.1:\(mutual.port ?? 0)"
        let authority = certificates.caA.path
        let session = try SessionSupport.session(servers.httpbinTLS) {
            $0.securityPolicy = .certificateAuthorities(path: authority)
            $0.clientIdentities[key] = identity
            // Only the mutual-TLS host pins: httpbin's own certificate is not pinned.
            $0.securityPolicies[key] = .publicKeys([servers.pins.good])
            $0.securityPolicies[key]?.certificateAuthoritiesPath = authority
        }
        let whoami = try await session.get(mutual.appendingPathComponent("client-certificate").absoluteString)
        #expect(whoami.value?["names"] == ["client.satchel.test"])
        #expect(try await session.get("get").response.status.code == 200)

        let pinnedElsewhere = try SessionSupport.session(servers.httpbinTLS) {
            $0.securityPolicy = .certificateAuthorities(path: authority)
            $0.securityPolicies[key] = .publicKeys([servers.pins.caB])  // matches nothing
            $0.securityPolicies[key]?.certificateAuthoritiesPath = authority
            $0.clientIdentities[key] = identity
        }
        #expect(try await pinnedElsewhere.get("get").response.status.code == 200)
        let refused = await pinnedElsewhere.result(
            for: SessionRequest(.get, mutual.appendingPathComponent("client-certificate").absoluteString))
        #expect(refused.failure?.code == .tlsFailure)
    }
}
