// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// Which redirects a session follows (Alamofire's `Redirector`).
///
/// Satchel follows redirects itself rather than through libcurl, so each hop is seen by the
/// event monitors and by the rules here: 301, 302 and 303 turn a POST (303: anything but HEAD)
/// into a GET without a body, as browsers and NSURLSession do; 307 and 308 resend the same
/// method and body (the body stream is rewound; a stream that cannot rewind ends the request
/// with an error). When the origin (scheme, host, port) changes, `Authorization`, `Cookie` and
/// `Proxy-Authorization` are removed; cookies the session stored are sent by their own domain
/// rules.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether redirects are followed at all; when not, the 3xx response is the result.
    public var follows = true
    /// The most redirects one request follows (NSURLSession's 16).
    public var maximumRedirects = 16
    /// Whether a redirect from `https` to plain `http` is followed (curl and browsers do; off by default).
    public var allowsDowngradeToHTTP = false

    /// Follows up to 16 redirects.
    public init() {}

    /// Does not follow redirects.
    public static var none: RedirectPolicy {
        var policy = RedirectPolicy()
        policy.follows = false
        return policy
    }

    /// Follows up to `maximumRedirects` redirects.
    public static func follow(maximumRedirects: Int) -> RedirectPolicy {
        var policy = RedirectPolicy()
        policy.maximumRedirects = maximumRedirects
        return policy
    }

    /// Headers that carry credentials and are not sent to another origin.
    static let credentialHeaders: [HTTPField.Name] = [.authorization, .cookie, .proxyAuthorization]
}
