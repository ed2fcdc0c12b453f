// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A user name and password for HTTP authentication (AFNetworking's `NSURLCredential`), answered
/// by libcurl to the server's challenge: Basic sent up front, Digest (MD5 and SHA-256,
/// `qop=auth`) and NTLM after a 401, or whichever the server offers (`.any`).
///
/// A credential is only ever sent to the origin it was given for: a request's own to its URL's
/// origin (not after a redirect to another), the session's store's to the host it is stored
/// under. Its `description` never shows the password.
///
/// ```swift
/// var request = SessionRequest(.get, "reports/today")
/// request.credential = Credential(user: "ann", password: secret, method: .digest)
/// configuration.credentials["api.example.com"] = Credential(user: "ann", password: secret)
/// ```
public struct Credential: Sendable, Hashable, CustomStringConvertible {
    /// How the credential is presented.
    public enum Method: Sendable, Hashable {
        /// `Authorization: Basic`, sent with the first request (RFC 7617).
        case basic
        /// Digest (RFC 7616) after the server's 401 challenge: MD5 or SHA-256, as it asks.
        case digest
        /// NTLM after the server's challenge (HTTP/1.1 only).
        case ntlm
        /// The most secure method the server's challenge offers (a first request without
        /// credentials finds out).
        case any
    }

    /// The user name.
    public var user: String
    /// The password.
    public var password: String
    /// How it is presented.
    public var method: Method

    /// Creates a credential.
    public init(user: String, password: String, method: Method = .basic) {
        self.user = user
        self.password = password
        self.method = method
    }

    /// The user and method, never the password.
    public var description: String { "Credential(user: \(user), method: \(method))" }

    /// libcurl's `CURLOPT_HTTPAUTH` bits for ``method``.
    var curlAuthentication: Int {
        switch method {
        case .basic: 1  // CURLAUTH_BASIC
        case .digest: 2  // CURLAUTH_DIGEST
        case .ntlm: 8  // CURLAUTH_NTLM
        case .any: ~16  // CURLAUTH_ANY: every method but DIGEST_IE
        }
    }

    /// Whether libcurl answers a 401 challenge within the transfer (so a 401 head may be
    /// followed by another response).
    var answersChallenges: Bool { method != .basic }
}
