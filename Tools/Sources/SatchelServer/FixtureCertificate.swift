// SPDX-License-Identifier: Apache-2.0
import CSatchelOpenSSL
import Foundation

/// An X.509 v3 certificate made and signed with the system's OpenSSL, for a TLS
/// ``FixtureServer``'s throwaway identity (``FixtureTLSIdentity``).
///
/// The fixture server needs two: a certificate authority and a leaf it signs. OpenSSL makes them
/// rather than swift-certificates and swift-crypto, whose second copy of BoringSSL (NIOSSL brings
/// the first) was a fifth of Tools' build.
///
/// ```swift
/// let key = try FixtureCertificate.Key()
/// let authority = try FixtureCertificate(
///     subject: [("CN", "Example CA")], key: key, issuer: nil, issuerKey: key,
///     validity: Date()...Date().addingTimeInterval(3600),
///     extensions: [(NID_basic_constraints, "critical,CA:TRUE")])
/// let pem = try authority.pem()
/// ```
final class FixtureCertificate {
    /// The certificate (`X509 *`), owned.
    let pointer: OpaquePointer

    /// Makes a certificate for `key`'s public key and signs it with `issuerKey` (SHA-256).
    ///
    /// - Parameters:
    ///   - subject: The subject's name, as OpenSSL's short field names and values (`("CN", "localhost")`).
    ///   - key: The key whose public half the certificate carries.
    ///   - issuer: The issuing certificate, or `nil` for a self-signed one (its issuer is its subject).
    ///   - issuerKey: The key that signs: `issuer`'s, or `key` when self-signed.
    ///   - validity: From `notBefore` to `notAfter`.
    ///   - extensions: Extensions as OpenSSL's configuration strings by NID, in order
    ///     (`(NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1")`); `hash` and `keyid` see the
    ///     subject's and the issuer's keys.
    /// - Throws: ``FixtureServerError/tlsSetup(_:)`` naming the OpenSSL step that failed.
    init(
        subject: [(field: String, value: String)], key: Key, issuer: FixtureCertificate?, issuerKey: Key,
        validity: ClosedRange<Date>, extensions: [(nid: Int32, value: String)]
    ) throws {
        guard let certificate = X509_new() else { throw Self.failure("X509_new") }
        pointer = certificate
        guard X509_set_version(certificate, Int(X509_VERSION_3)) == 1 else { throw Self.failure("X509_set_version") }
        try setRandomSerialNumber()
        guard ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(validity.lowerBound.timeIntervalSince1970)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(validity.upperBound.timeIntervalSince1970)) != nil
        else { throw Self.failure("ASN1_TIME_set") }
        guard X509_set_pubkey(certificate, key.pointer) == 1 else { throw Self.failure("X509_set_pubkey") }

        guard let name = X509_NAME_new() else { throw Self.failure("X509_NAME_new") }
        defer { X509_NAME_free(name) }
        for (field, value) in subject {
            let bytes = Array(value.utf8)
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1 else {
                throw Self.failure("X509_NAME_add_entry_by_txt \(field)")
            }
        }
        guard X509_set_subject_name(certificate, name) == 1,
            X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0.pointer) } ?? name) == 1
        else { throw Self.failure("X509_set_subject_name") }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? certificate, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let extensionValue = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw Self.failure("the extension \(String(cString: OBJ_nid2sn(nid))) = \(value)")
            }
            defer { X509_EXTENSION_free(extensionValue) }
            guard X509_add_ext(certificate, extensionValue, -1) == 1 else { throw Self.failure("X509_add_ext") }
        }
        guard X509_sign(certificate, issuerKey.pointer, EVP_sha256()) > 0 else { throw Self.failure("X509_sign") }
    }

    deinit {
        X509_free(pointer)
    }

    /// The certificate, PEM.
    func pem() throws -> String {
        try Self.pem("PEM_write_bio_X509") { PEM_write_bio_X509($0, pointer) }
    }

    /// 128 random bits, positive, as RFC 5280 asks of a serial number (at most 20 octets).
    private func setRandomSerialNumber() throws {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw Self.failure("RAND_bytes") }
        bytes[0] &= 0x7f
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw Self.failure("BN_bin2bn") }
        defer { BN_free(number) }
        guard let serial = BN_to_ASN1_INTEGER(number, nil) else { throw Self.failure("BN_to_ASN1_INTEGER") }
        defer { ASN1_INTEGER_free(serial) }
        guard X509_set_serialNumber(pointer, serial) == 1 else { throw Self.failure("X509_set_serialNumber") }
    }

    /// What `write` puts in a memory BIO, as text.
    fileprivate static func pem(_ step: String, _ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw failure(step) }
        var bytes = [UInt8](repeating: 0, count: BIO_ctrl_pending(bio))
        guard BIO_read(bio, &bytes, Int32(bytes.count)) == Int32(bytes.count) else { throw failure("BIO_read") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A ``FixtureServerError/tlsSetup(_:)`` naming `step` and OpenSSL's first queued error, whose
    /// queue it empties.
    fileprivate static func failure(_ step: String) -> FixtureServerError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return .tlsSetup("OpenSSL: \(step) failed") }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        let message = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .tlsSetup("OpenSSL: \(step) failed: \(message)")
    }
}

extension FixtureCertificate {
    /// A P-256 key pair made with the system's OpenSSL.
    final class Key {
        /// The key pair (`EVP_PKEY *`), owned.
        let pointer: OpaquePointer

        /// Generates a new P-256 key pair.
        ///
        /// - Throws: ``FixtureServerError/tlsSetup(_:)`` when OpenSSL cannot make one.
        init() throws {
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
                throw FixtureCertificate.failure("EVP_PKEY_CTX_new_from_name EC")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
                EVP_PKEY_generate(context, &key) == 1, let key
            else { throw FixtureCertificate.failure("generating a P-256 key") }
            pointer = key
        }

        deinit {
            EVP_PKEY_free(pointer)
        }

        /// The private key, PEM (PKCS #8, `BEGIN PRIVATE KEY`).
        func privateKeyPEM() throws -> String {
            try FixtureCertificate.pem("PEM_write_bio_PrivateKey") {
                PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil)
            }
        }

        /// The base64 SHA-256 of the public key's DER SubjectPublicKeyInfo: curl's and
        /// `SecurityPolicy.publicKeys(_:)`'s pin, without `sha256//`.
        func publicKeySHA256() throws -> String {
            var der: UnsafeMutablePointer<UInt8>?
            let length = i2d_PUBKEY(pointer, &der)
            guard length > 0, let der else { throw FixtureCertificate.failure("i2d_PUBKEY") }
            defer { CRYPTO_free(der, #fileID, #line) }
            var digest = [UInt8](repeating: 0, count: 32)
            var digestLength: UInt32 = 0
            guard EVP_Digest(der, Int(length), &digest, &digestLength, EVP_sha256(), nil) == 1, digestLength == 32
            else {
                throw FixtureCertificate.failure("EVP_Digest SHA-256")
            }
            return Data(digest).base64EncodedString()
        }
    }
}
