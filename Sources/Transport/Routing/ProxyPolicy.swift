// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Whether requests go through a proxy, and which (curl's `--proxy` and `--noproxy`).
///
/// ```swift
/// configuration.proxy = .environment   // the default: http_proxy, https_proxy, no_proxy, …
/// configuration.proxy = .direct        // never, whatever the environment says
/// configuration.proxy = .through(try Proxy("socks5h://gateway.internal:1080",
///     credential: Credential(user: "svc", password: secret), bypass: ["localhost", ".internal"]))
/// ```
///
/// The session's security policy (trust, pinning) and its credentials are the origin server's:
/// the proxy is trusted by its own ``Proxy/certificateAuthoritiesPath`` and answered with its
/// own ``Proxy/credential``. Through an HTTP proxy, an `https` origin is reached through a
/// `CONNECT` tunnel that carries none of the request's headers (its `Authorization` goes
/// inside the TLS connection to the origin); an `http` origin's request is the proxy's to read,
/// as with any plain-HTTP proxy.
public enum ProxyPolicy: Sendable, Hashable {
    /// The proxy the environment names, read as curl reads it: `http_proxy` (lower case only,
    /// since `HTTP_PROXY` can be set by a CGI request's `Proxy:` header), `https_proxy` or
    /// `HTTPS_PROXY`, `all_proxy` or `ALL_PROXY` for any scheme, and `no_proxy` or `NO_PROXY`
    /// (comma-separated hosts or domains that go direct, `*` for all). No variable, no proxy.
    case environment
    /// No proxy, whatever the environment says.
    case direct
    /// This proxy.
    case through(Proxy)
}

/// A proxy server: an HTTP proxy (`http://`, or `https://` for TLS to the proxy itself) or a
/// SOCKS proxy (`socks4://`, `socks4a://`, `socks5://` resolving names locally, `socks5h://`
/// letting the proxy resolve them).
public struct Proxy: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's URL, without credentials.
    public let url: String
    /// Answered to the proxy's `407` challenge (`Proxy-Authorization`), or sent to a SOCKS5
    /// proxy; never to the origin server.
    public var credential: Credential?
    /// Hosts reached directly: a host name (`example.com` also covers its subdomains), a domain
    /// with a leading dot (`.internal`), an IP address, or `*` for every host (curl's
    /// `--noproxy`).
    public var bypass: [String]
    /// The CA certificates (a PEM file) that an `https://` proxy's certificate must chain to;
    /// `nil` for the system's.
    public var certificateAuthoritiesPath: String?

    /// The schemes a proxy URL may have.
    public static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// Creates a proxy.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a URL whose scheme is not one of
    ///   ``schemes``, that has no host, or that carries credentials (give them as `credential`,
    ///   so they never show in a description), and for a bypass entry with a space or comma.
    ///   The messages never repeat the URL, which could hold a password.
    public init(
        _ url: String, credential: Credential? = nil, bypass: [String] = [], certificateAuthoritiesPath: String? = nil
    ) throws(SatchelError) {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw SatchelError(.invalidArgument, "the proxy URL has no scheme (http://, https://, socks5h://, …)")
        }
        let scheme = parts[0].lowercased()
        guard Self.schemes.contains(scheme) else {
            throw SatchelError(
                .invalidArgument,
                "the proxy scheme \(scheme) is not one of \(Self.schemes.sorted().joined(separator: ", "))")
        }
        let authority = parts[1].prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.hasPrefix(":") else {
            throw SatchelError(.invalidArgument, "the proxy URL has no host")
        }
        guard !authority.contains("@") else {
            throw SatchelError(.invalidArgument, "the proxy URL has credentials in it: give them as the credential")
        }
        for host in bypass where host.isEmpty || host.contains(where: { $0 == " " || $0 == "," || $0.isNewline }) {
            throw SatchelError(.invalidArgument, "the proxy bypass entry \"\(host)\" is empty or has a space or comma")
        }
        self.url = url
        self.credential = credential
        self.bypass = bypass
        self.certificateAuthoritiesPath = certificateAuthoritiesPath
    }

    /// The URL, the user and the bypass list, never the password.
    public var description: String {
        let user = credential.map { " as \($0.user)" } ?? ""
        let direct = bypass.isEmpty ? "" : " (direct: \(bypass.joined(separator: ",")))"
        return "Proxy(\(url)\(user)\(direct))"
    }
}
