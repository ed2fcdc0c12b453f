// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An X.509 certificate to pin, kept as DER.
public struct PinnedCertificate: Sendable, Hashable {
    /// The certificate's DER encoding.
    public let der: [UInt8]

    /// Wraps a DER-encoded certificate.
    /// - Throws: ``SatchelError/Code/syntaxError`` when `der` is not a certificate.
    public init(der: [UInt8]) throws(SatchelError) {
        _ = try DERCertificate.subjectPublicKeyInfo(in: der)
        self.der = der
    }

    /// Every certificate of a PEM text (`-----BEGIN CERTIFICATE-----` blocks).
    /// - Throws: ``SatchelError/Code/syntaxError`` when there is none or one is malformed.
    public static func certificates(pem: String) throws(SatchelError) -> [PinnedCertificate] {
        var certificates: [PinnedCertificate] = []
        var base64: String?
        for line in pem.split(whereSeparator: \.isNewline).map(\.trimmingSpacesAndTabs) {
            if line == "-----BEGIN CERTIFICATE-----" {
                base64 = ""
            } else if line == "-----END CERTIFICATE-----", let text = base64 {
                guard let data = Data(base64Encoded: text) else {
                    throw SatchelError(
                        .syntaxError, "certificate \(certificates.count + 1) of the PEM text is not valid base64")
                }
                certificates.append(try PinnedCertificate(der: Array(data)))
                base64 = nil
            } else if base64 != nil {
                base64! += line
            }
        }
        guard !certificates.isEmpty else {
            throw SatchelError(.syntaxError, "the PEM text has no complete CERTIFICATE block")
        }
        return certificates
    }

    /// Every certificate of a PEM or DER file.
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be read, or the parse errors.
    public static func certificates(contentsOf path: String) throws(SatchelError) -> [PinnedCertificate] {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw SatchelError(.io, "cannot read certificate file \(path): \(error)")
        }
        if bytes.first == 0x30 { return [try PinnedCertificate(der: bytes)] }
        return try certificates(pem: String(decoding: bytes, as: UTF8.self))
    }

    /// The certificate as PEM.
    public var pem: String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    /// The base64 SHA-256 digest of the certificate's SubjectPublicKeyInfo (libcurl's
    /// `sha256//…` pin without the prefix).
    public var publicKeySHA256: String {
        // The initialiser checked the structure, so the lookup cannot fail here.
        let info = (try? DERCertificate.subjectPublicKeyInfo(in: der)) ?? []
        return Data(SHA256.hash(info)).base64EncodedString()
    }
}
