// SPDX-License-Identifier: Apache-2.0
import Crypto
import Foundation
import SwiftASN1
import X509

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
        do {
            let notBefore = Date().addingTimeInterval(-3600)
            let notAfter = notBefore.addingTimeInterval(validity + 3600)
            let authorityKey = P256.Signing.PrivateKey()
            let authorityName = try DistinguishedName {
                OrganizationName("Satchel")
                CommonName("Satchel fixture CA")
            }
            let authority = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(authorityKey.publicKey),
                notValidBefore: notBefore, notValidAfter: notAfter,
                issuer: authorityName, subject: authorityName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: Certificate.PublicKey(authorityKey.publicKey))
                },
                issuerPrivateKey: Certificate.PrivateKey(authorityKey))

            let leafKey = P256.Signing.PrivateKey()
            let serverName = "localhost"
            let leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(leafKey.publicKey),
                notValidBefore: notBefore, notValidAfter: notAfter,
                issuer: authorityName,
                subject: DistinguishedName { CommonName(serverName) },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames([
                        .dnsName(serverName),
                        .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                    ])
                    AuthorityKeyIdentifier(
                        keyIdentifier: SubjectKeyIdentifier(hash: Certificate.PublicKey(authorityKey.publicKey))
                            .keyIdentifier)
                },
                issuerPrivateKey: Certificate.PrivateKey(authorityKey))

            let authorityPEM = try authority.serializeAsPEM().pemString + "\n"
            let digest = SHA256.hash(data: leafKey.publicKey.derRepresentation)
            let pin = "sha256//" + Data(digest).base64EncodedString()
            let path = try PrivateTemporaryFile.write(Array(authorityPEM.utf8), named: "ca.pem")
            return FixtureTLSIdentity(
                certificateAuthorityPEM: authorityPEM, certificateAuthorityPath: path, publicKeyPin: pin,
                serverName: serverName, leafCertificatePEM: try leaf.serializeAsPEM().pemString + "\n",
                leafPrivateKeyPEM: leafKey.pemRepresentation + "\n")
        } catch let error as FixtureServerError {
            throw error
        } catch {
            throw FixtureServerError.tlsSetup("\(error)")
        }
    }

    /// Removes the certificate authority's file and its private directory; doing it again does
    /// nothing.
    func removeFiles() {
        PrivateTemporaryFile.remove(certificateAuthorityPath)
    }
}
