// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A cookie the session holds: what a response's `Set-Cookie` stored, or one set with
/// ``CookieStore/setCookie(_:)``.
///
/// The attributes are the ones libcurl's cookie engine keeps (domain, path, `Secure`,
/// `HttpOnly`, expiry) and `SameSite`, which the store keeps beside it as the `Set-Cookie`
/// field gave it (a client that is not a browser has no sites to enforce it between).
public struct Cookie: Sendable, Hashable {
    /// A cookie's `SameSite` attribute (RFC 6265bis §4.1.2.7).
    public enum SameSite: String, Sendable, Hashable, CaseIterable {
        /// `Strict` (sent on same-site requests only), `Lax` (also on top-level navigations from
        /// other sites) or `None` (sent on every request); the raw value is the attribute's spelling.
        case strict = "Strict", lax = "Lax", none = "None"

        /// The attribute's value, in any case; `nil` for another.
        public init?(attribute: String) {
            guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == attribute.lowercased() }) else {
                return nil
            }
            self = match
        }
    }

    /// The name.
    public var name: String
    /// The value.
    public var value: String
    /// The host it belongs to, without a leading dot (`example.com`).
    public var domain: String
    /// Whether it is also sent to subdomains of ``domain`` (the response gave a `Domain`).
    public var includesSubdomains: Bool
    /// The path it is sent for and beneath.
    public var path: String
    /// Sent over HTTPS only.
    public var isSecure: Bool
    /// Not for scripts (`HttpOnly`); kept for completeness, as a server set it.
    public var isHTTPOnly: Bool
    /// When it expires, in seconds since 1970; `nil` for a session cookie.
    public var expires: Int64?
    /// `SameSite`, as received; `nil` when the cookie had none (or came from a cookie file,
    /// whose format has no place for it).
    public var sameSite: SameSite?

    /// Creates a cookie.
    public init(
        name: String, value: String, domain: String, includesSubdomains: Bool = false, path: String = "/",
        isSecure: Bool = false, isHTTPOnly: Bool = false, expires: Int64? = nil, sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.includesSubdomains = includesSubdomains
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.expires = expires
        self.sameSite = sameSite
    }

    /// What identifies a cookie in a store: its name, domain and path.
    struct Key: Hashable {
        var name: String
        var domain: String
        var path: String
    }

    /// The cookie's key (the domain in lower case).
    var key: Key { Key(name: name, domain: domain.lowercased(), path: path) }

    /// Whether a request to `host` and `path`, over HTTPS or not, carries this cookie
    /// (RFC 6265 §5.4 domain and path matching).
    public func matches(host: String, path requestPath: String, secure: Bool) -> Bool {
        let host = host.lowercased()
        let domain = domain.lowercased()
        let domainMatches = host == domain || (includesSubdomains && host.hasSuffix("." + domain))
        let pathMatches =
            requestPath == path
            || (requestPath.hasPrefix(path) && (path.hasSuffix("/") || requestPath.dropFirst(path.count).first == "/"))
        return domainMatches && pathMatches && (secure || !isSecure)
    }
}

extension Cookie {
    /// A line of libcurl's cookie list (the Netscape cookie file format: domain, subdomains,
    /// path, secure, expiry, name, value, tab-separated; `#HttpOnly_` before the domain).
    init?(netscapeLine line: String) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7 else { return nil }
        var domain = fields[0]
        let httpOnly = domain.hasPrefix("#HttpOnly_")
        if httpOnly { domain.removeFirst("#HttpOnly_".count) }
        if domain.hasPrefix(".") { domain.removeFirst() }
        guard !domain.isEmpty, let expiry = Int64(fields[4]) else { return nil }
        self.init(
            name: fields[5], value: fields[6], domain: domain, includesSubdomains: fields[1] == "TRUE", path: fields[2],
            isSecure: fields[3] == "TRUE", isHTTPOnly: httpOnly, expires: expiry == 0 ? nil : expiry)
    }

    /// The cookie as a line libcurl's `CURLOPT_COOKIELIST` takes.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an empty name or domain, or a field
    ///   with a tab, a line end or a `;`.
    func netscapeLine() throws(SatchelError) -> String {
        guard !name.isEmpty, !domain.isEmpty, path.hasPrefix("/") else {
            throw SatchelError(.invalidArgument, "a cookie needs a name, a domain and a path starting with /")
        }
        for (label, field) in [("name", name), ("value", value), ("domain", domain), ("path", path)]
        where field.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == ";" }) {
            throw SatchelError(.invalidArgument, "the cookie's \(label) contains a tab, a line end or ';'")
        }
        let prefix = isHTTPOnly ? "#HttpOnly_" : ""
        let host = includesSubdomains ? "." + domain : domain
        return [
            prefix + host, includesSubdomains ? "TRUE" : "FALSE", path, isSecure ? "TRUE" : "FALSE",
            String(expires ?? 0), name, value,
        ].joined(separator: "\t")
    }
}
