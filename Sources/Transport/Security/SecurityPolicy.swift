// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// How a session trusts a server's TLS certificate (AFNetworking's `AFSecurityPolicy`;
/// Alamofire's evaluator names as constructors).
///
/// - ``default``: the system's trust store and host-name validation (`DefaultTrustEvaluator`).
/// - ``pinnedCertificates(_:)``: the pinned certificates are the only trust anchors, so the
///   server's chain must lead to one of them (`PinnedCertificatesTrustEvaluator`).
/// - ``publicKeys(_:)``: the server certificate's public key must hash (SHA-256 of the
///   SubjectPublicKeyInfo) to a pinned value (`PublicKeysTrustEvaluator`).
/// - ``disabled``: no validation at all (`DisabledTrustEvaluator`), for tests only.
///
/// AFNetworking's rules hold: a self-signed certificate (``allowInvalidCertificates``) with
/// ``validatesDomainName`` needs pinning, and a pinning policy applied to a plain-HTTP URL is
/// rejected. Both fail the request with ``SatchelError/Code/invalidArgument`` before anything
/// is sent. Differences forced by libcurl are listed in Sources/Satchel/Satchel.docc/Sessions.md.
public struct SecurityPolicy: Sendable, Hashable {
    /// What is pinned (AFNetworking's `AFSSLPinningMode`).
    public enum PinningMode: Sendable, Hashable {
        /// Nothing: the trust store decides.
        case none
        /// Whole certificates (``SecurityPolicy/pinnedCertificates``).
        case certificate
        /// Public keys (``SecurityPolicy/pinnedPublicKeyHashes``).
        case publicKey
    }

    /// What is pinned.
    public var pinningMode: PinningMode = .none
    /// The certificates pinned in ``PinningMode/certificate`` mode.
    public var pinnedCertificates: [PinnedCertificate] = []
    /// Base64 SHA-256 digests of the pinned SubjectPublicKeyInfos (``PinningMode/publicKey`` mode).
    public var pinnedPublicKeyHashes: [String] = []
    /// Whether expired, self-signed or otherwise untrusted certificates are accepted.
    public var allowInvalidCertificates = false
    /// Whether the certificate must name the host.
    public var validatesDomainName = true
    /// A PEM bundle of certificate authorities used instead of the system store
    /// (curl's `--cacert`); `nil` for the system store.
    public var certificateAuthoritiesPath: String?

    /// Creates a policy; see the static constructors for the usual ones.
    public init(
        pinningMode: PinningMode = .none, pinnedCertificates: [PinnedCertificate] = [],
        pinnedPublicKeyHashes: [String] = [], allowInvalidCertificates: Bool = false,
        validatesDomainName: Bool = true, certificateAuthoritiesPath: String? = nil
    ) {
        self.pinningMode = pinningMode
        self.pinnedCertificates = pinnedCertificates
        self.pinnedPublicKeyHashes = pinnedPublicKeyHashes
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.certificateAuthoritiesPath = certificateAuthoritiesPath
    }

    /// System trust with host-name validation.
    public static var `default`: SecurityPolicy { SecurityPolicy() }

    /// Trust anchored in the certificate authorities of a PEM file instead of the system store.
    public static func certificateAuthorities(path: String) -> SecurityPolicy {
        SecurityPolicy(certificateAuthoritiesPath: path)
    }

    /// The chain must lead to one of `certificates`, which become the only trust anchors.
    public static func pinnedCertificates(_ certificates: [PinnedCertificate]) -> SecurityPolicy {
        SecurityPolicy(pinningMode: .certificate, pinnedCertificates: certificates)
    }

    /// The server certificate's public key must be one of `hashes` (base64 SHA-256 digests of
    /// SubjectPublicKeyInfo, as `openssl … | openssl dgst -sha256 -binary | base64` prints).
    public static func publicKeys(_ hashes: [String]) -> SecurityPolicy {
        SecurityPolicy(pinningMode: .publicKey, pinnedPublicKeyHashes: hashes)
    }

    /// The server certificate's public key must be one of those in `certificates`.
    public static func publicKeys(of certificates: [PinnedCertificate]) -> SecurityPolicy {
        publicKeys(certificates.map(\.publicKeySHA256))
    }

    /// No validation: any certificate, any name. For tests against throwaway servers only.
    public static var disabled: SecurityPolicy {
        SecurityPolicy(allowInvalidCertificates: true, validatesDomainName: false)
    }

    /// Checks AFNetworking's rules for a request to `scheme`.
    /// - Throws: ``SatchelError/Code/invalidArgument`` naming the broken rule.
    func check(scheme: String) throws(SatchelError) {
        let pins = pinningMode == .certificate ? pinnedCertificates.count : pinnedPublicKeyHashes.count
        if pinningMode != .none && pins == 0 {
            throw SatchelError(
                .invalidArgument,
                "the security policy pins \(pinningMode == .certificate ? "certificates" : "public keys") but has none")
        }
        if pinningMode != .none && scheme.lowercased() != "https" {
            throw SatchelError(
                .invalidArgument,
                "a pinning security policy cannot be used for a plain \(scheme) URL; pinning needs https")
        }
        if allowInvalidCertificates && validatesDomainName && pinningMode == .none && scheme.lowercased() == "https" {
            throw SatchelError(
                .invalidArgument,
                "validating the domain name of an invalid (self-signed) certificate requires pinning: pin the certificate or public key, or turn off validatesDomainName"
            )
        }
    }
}
