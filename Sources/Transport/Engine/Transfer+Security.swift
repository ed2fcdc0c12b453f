// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Transfer {
    /// Applies the security policy: trust store or pinned anchors, host-name check, public-key pins.
    func configureSecurity(_ handle: EasyHandle) throws(SatchelError) {
        if let identity = options.clientIdentity { try configureClientIdentity(identity, handle) }
        let policy = options.security
        try handle.set(CURLOPT_SSL_VERIFYPEER, !policy.allowInvalidCertificates)
        try handle.set(CURLOPT_SSL_VERIFYHOST, policy.validatesDomainName && !policy.allowInvalidCertificates ? 2 : 0)
        if let path = policy.certificateAuthoritiesPath {
            try handle.set(CURLOPT_CAINFO, path)
            try handle.set(CURLOPT_CAPATH, nil as String?)
        }
        switch policy.pinningMode {
        case .none:
            break
        case .certificate:
            // The pinned certificates are the only anchors; libcurl accepts a chain that ends
            // in any of them (OpenSSL's partial-chain flag), so a leaf or an intermediate can be
            // pinned. The blob also keeps connections from being shared with other policies.
            let bundle = policy.pinnedCertificates.map(\.pem).joined()
            try handle.set(CURLOPT_CAINFO_BLOB, blob: Array(bundle.utf8))
            try handle.set(CURLOPT_CAPATH, nil as String?)
            try handle.set(CURLOPT_CAINFO, nil as String?)
            if policy.allowInvalidCertificates {
                // No chain validation, so check AFNetworking's rule before the request goes out:
                // the server's chain must contain a pinned certificate.
                try handle.set(CURLOPT_CERTINFO, true)
                guard satchel_curl_easy_setopt_prerequest_function(handle.raw, Self.prerequestCallback) == CURLE_OK
                else {
                    throw SatchelError(.internal, "libcurl refused the pre-request callback")
                }
                try handle.set(CURLOPT_PREREQDATA, pointer: Unmanaged.passUnretained(self).toOpaque())
            }
        case .publicKey:
            try handle.set(
                CURLOPT_PINNEDPUBLICKEY, policy.pinnedPublicKeyHashes.map { "sha256//\($0)" }.joined(separator: ";"))
        }
    }

    /// Sets the client certificate and key, from files or as blobs libcurl copies.
    private func configureClientIdentity(_ identity: ClientIdentity, _ handle: EasyHandle) throws(SatchelError) {
        func set(_ material: ClientIdentity.Material, file: CURLoption, blob: CURLoption) throws(SatchelError) {
            switch material {
            case .file(let path): try handle.set(file, path)
            case .pem(let text): try handle.set(blob, blob: Array(text.utf8))
            case .bytes(let bytes): try handle.set(blob, blob: bytes)
            }
        }
        try set(identity.certificate, file: CURLOPT_SSLCERT, blob: CURLOPT_SSLCERT_BLOB)
        try handle.set(CURLOPT_SSLCERTTYPE, identity.format.rawValue)
        if let key = identity.privateKey {
            try set(key, file: CURLOPT_SSLKEY, blob: CURLOPT_SSLKEY_BLOB)
            try handle.set(CURLOPT_SSLKEYTYPE, identity.format == .der ? "DER" : "PEM")
        }
        if let passphrase = identity.passphrase { try handle.set(CURLOPT_KEYPASSWD, passphrase) }
    }

    /// Whether the server's chain (as libcurl saw it in the handshake) contains a pinned
    /// certificate; records a TLS failure when not.
    func checkPinnedCertificateChain() -> Bool {
        guard let handle else { return false }
        var info: UnsafeMutablePointer<curl_certinfo>?
        let pinned = Set(options.security.pinnedCertificates.map(\.der))
        if satchel_curl_easy_getinfo_certificates(handle.raw, &info) == CURLE_OK, let info,
            info.pointee.num_of_certs > 0
        {
            for index in 0..<Int(info.pointee.num_of_certs) {
                var entry = info.pointee.certinfo[index]
                while let node = entry {
                    let text = String(cString: node.pointee.data)
                    if text.hasPrefix("Cert:"),
                        let certificate = try? PinnedCertificate.certificates(pem: String(text.dropFirst(5))).first,
                        pinned.contains(certificate.der)
                    {
                        return true
                    }
                    entry = node.pointee.next
                }
            }
            fail(SatchelError(.tlsFailure, "\(options.url): no certificate in the server's chain is pinned"))
            return false
        }
        // A reused connection carries no certificate information; it was checked when it was
        // made, and libcurl only reuses it for the same pinned blob.
        if handle.long(CURLINFO_NUM_CONNECTS) == 0 { return true }
        fail(
            SatchelError(
                .tlsFailure, "\(options.url): libcurl reported no server certificates to check against the pins"))
        return false
    }
}
