// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A client certificate and its private key, presented when a TLS server asks for one (mutual
/// TLS; curl's `--cert` and `--key`).
///
/// ```swift
/// configuration.clientIdentity = ClientIdentity(
///     certificate: .file("/etc/app/client.pem"), privateKey: .file("/etc/app/client-key.pem"), passphrase: secret)
/// configuration.clientIdentities["payments.internal"] = ClientIdentity(
///     certificate: .pem(vault.certificate), privateKey: .pem(vault.key))
/// ```
///
/// The certificate is PEM (the chain, leaf first), DER or a PKCS #12 bundle (`.p12`, which holds
/// the key too); the key PEM or DER, unencrypted or encrypted with `passphrase`, or left out when
/// the certificate's file or text holds it. A key that cannot be loaded (a wrong passphrase, not
/// the certificate's key, an unreadable file) fails the request with
/// ``SatchelError/Code/tlsFailure`` before anything is sent. The `description` shows neither the
/// passphrase nor the certificate's or key's bytes.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// Where a certificate or key comes from.
    public enum Material: Sendable, Hashable {
        /// A file, read by libcurl for each new connection.
        case file(String)
        /// PEM text in memory (never written to a file).
        case pem(String)
        /// Bytes in memory: DER, or a PKCS #12 bundle.
        case bytes([UInt8])
    }

    /// How the certificate (and the key) are encoded (curl's `--cert-type`).
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// PEM text.
        case pem = "PEM"
        /// DER bytes.
        case der = "DER"
        /// A PKCS #12 bundle of the certificate chain and the key.
        case pkcs12 = "P12"
    }

    /// The certificate chain, leaf first.
    public var certificate: Material
    /// The private key; `nil` when ``certificate`` holds it too (a PEM file with both, or
    /// PKCS #12).
    public var privateKey: Material?
    /// The key's (or the bundle's) passphrase, when it is encrypted.
    public var passphrase: String?
    /// How ``certificate`` is encoded; the key is PEM unless this is ``Format/der``.
    public var format: Format

    /// Creates an identity.
    public init(certificate: Material, privateKey: Material? = nil, passphrase: String? = nil, format: Format = .pem) {
        self.certificate = certificate
        self.privateKey = privateKey
        self.passphrase = passphrase
        self.format = format
    }

    /// The files, or that PEM is in memory; never the passphrase or the PEM text.
    public var description: String {
        func describe(_ material: Material?) -> String {
            switch material {
            case .file(let path): path
            case .pem, .bytes: "\(format.rawValue) in memory"
            case nil: "in the certificate"
            }
        }
        let locked = passphrase == nil ? "" : ", with a passphrase"
        return "ClientIdentity(certificate: \(describe(certificate)), key: \(describe(privateKey))\(locked))"
    }
}
