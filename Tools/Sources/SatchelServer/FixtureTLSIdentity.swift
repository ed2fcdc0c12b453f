// SPDX-License-Identifier: Apache-2.0
import CSatchelOpenSSL
import Foundation

/// The throwaway certificates of a TLS ``FixtureServer``: a P-256 certificate authority made at
/// start and a leaf for `127.0.0.1` and `localhost` that it signed.
///
/// Clients trust the server through ``certificateAuthorityPath`` (curl's `--cacert`,
/// `SecurityPolicy.certificateAuthorities(path:)`) or by pinning ``publicKeyPin`` (curl's
/// `--pinnedpubkey`, `SecurityPolicy.publicKeys(_:)` without the `sha256//` prefix).
public struct FixtureTLSIdentity: Sendable {
    /// The certificate authority's certificate, PEM.
    public let certificateAuthorityPEM: String
    /// A private file (in a directory only the user can read) holding
    /// ``certificateAuthorityPEM``; removed when the server stops.
    public let certificateAuthorityPath: String
    /// The leaf's public-key pin, `sha256//` and the base64 SHA-256 of its SubjectPublicKeyInfo.
    public let publicKeyPin: String
    /// The name the leaf is issued for and clients should ask for: `localhost` (the leaf also
    /// carries the IP address 127.0.0.1).
    public let serverName: String
    /// The leaf certificate, PEM.
    public let leafCertificatePEM: String
    /// The leaf's private key, PEM (PKCS #8).
    let leafPrivateKeyPEM: String

    /// The base64 SHA-256 of the leaf's SubjectPublicKeyInfo, ``publicKeyPin`` without `sha256//`
    /// (what `SecurityPolicy.publicKeys(_:)` takes).
    public var publicKeySHA256: String {
        String(publicKeyPin.dropFirst("sha256//".count))
    }

    /// Generates a certificate authority and a leaf valid from an hour ago for `validity`, and
    /// writes the authority's PEM to a new private temporary file.
    ///
    /// - Throws: ``FixtureServerError/tlsSetup(_:)`` when a certificate cannot be made or the file
    ///   cannot be written.
    static func generate(validity: TimeInterval = 7 * 24 * 3600) throws -> FixtureTLSIdentity {
        let notBefore = Date().addingTimeInterval(-3600)
        let period = notBefore...notBefore.addingTimeInterval(validity + 3600)
        let authorityKey = try FixtureCertificate.Key()
        let authority = try FixtureCertificate(
            subject: [("O", "Satchel"), ("CN", "Satchel fixture CA")], key: authorityKey, issuer: nil,
            issuerKey: authorityKey, validity: period,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ])

        let leafKey = try FixtureCertificate.Key()
        let serverName = "localhost"
        let leaf = try FixtureCertificate(
            subject: [("CN", serverName)], key: leafKey, issuer: authority, issuerKey: authorityKey,
            validity: period,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_alt_name, "DNS:\(serverName),IP:127.0.0.1"),
                (NID_authority_key_identifier, "keyid:always"),
            ])

        let authorityPEM = try authority.pem()
        let path = try PrivateTemporaryFile.write(Array(authorityPEM.utf8), named: "ca.pem")
        return FixtureTLSIdentity(
            certificateAuthorityPEM: authorityPEM, certificateAuthorityPath: path,
            publicKeyPin: "sha256//" + (try leafKey.publicKeySHA256()), serverName: serverName,
            leafCertificatePEM: try leaf.pem(), leafPrivateKeyPEM: try leafKey.privateKeyPEM())
    }

    /// Removes the certificate authority's file and its private directory; doing it again does
    /// nothing.
    func removeFiles() {
        PrivateTemporaryFile.remove(certificateAuthorityPath)
    }
}
