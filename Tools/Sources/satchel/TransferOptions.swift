// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Foundation
import Satchel

extension ClientIdentity.Format: @retroactive ExpressibleByArgument {}
extension CachePolicy: @retroactive ExpressibleByArgument {}

/// Command-line flags for a ``SessionConfiguration``: timeouts, redirects, retries and TLS trust.
struct TransferOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Longest time for the whole request, in seconds (curl's --max-time; none by default).", valueName: "seconds"
        ))
    var timeout: Double?

    @Option(help: ArgumentHelp("Longest time to connect, TLS included, in seconds (default 60).", valueName: "seconds"))
    var connectTimeout: Double?

    @Option(help: "Most redirects followed (default 16).")
    var maxRedirects: Int?

    @Flag(help: "Do not follow redirects: print the 3xx response.")
    var noFollow = false

    @Option(help: "Retries of an idempotent request after a connection failure, timeout or 408/5xx (default 0).")
    var retries: Int = 0

    @Option(
        name: .customLong("pin-sha256"),
        help: ArgumentHelp(
            "Pin the server's public key: base64 SHA-256 of its SubjectPublicKeyInfo, bare or as sha256//BASE64 (repeatable).",
            valueName: "pin"))
    var pins: [String] = []

    @Option(
        help: ArgumentHelp(
            "Trust the certificate authorities in this PEM file instead of the system's.", valueName: "file"),
        completion: .file())
    var cacert: String?

    @Flag(name: [.customShort("k"), .long], help: "Accept any certificate and host name (pins still apply).")
    var insecure = false

    @Option(
        help: ArgumentHelp(
            "Present this client certificate to a TLS server that asks for one (PEM by default; with its key, or see --key).",
            valueName: "file"), completion: .file())
    var cert: String?

    @Option(
        help: ArgumentHelp("The client certificate's private key, when not in --cert's file.", valueName: "file"),
        completion: .file())
    var key: String?

    @Option(help: "How --cert is encoded: PEM, DER or P12 (PKCS #12, with its key).")
    var certType: ClientIdentity.Format = .pem

    @Option(help: ArgumentHelp("The passphrase of --key (or of a P12 --cert).", valueName: "phrase"))
    var pass: String?

    @Option(
        help: ArgumentHelp(
            "Read cookies from this file and keep the ones the response sets in it (the Netscape format curl reads; written atomically, mode 0600).",
            valueName: "file"), completion: .file())
    var cookieJar: String?

    @Flag(help: "Neither send nor keep cookies.")
    var noCookies = false

    @Option(
        help: ArgumentHelp(
            "Keep responses in this directory and answer from it as RFC 9111 allows (a private HTTP cache, made with mode 0700; off unless given).",
            valueName: "dir"), completion: .directory)
    var cache: String?

    @Option(
        help: ArgumentHelp(
            "How the request uses --cache: protocol (RFC 9111, the default), reload, prefer-cache, only-cache or revalidate.",
            valueName: "policy"))
    var cachePolicy: CachePolicy?

    @Option(
        help: ArgumentHelp(
            "Connect through this unix domain socket instead of TCP; the URL still names the host and path (http://localhost/v1.43/info).",
            valueName: "path"), completion: .file())
    var unixSocket: String?

    @Option(
        help: ArgumentHelp(
            "Resolve HOST:PORT to ADDRESS (comma-separated for several), keeping the URL, Host and TLS name (repeatable).",
            valueName: "host:port:address"))
    var resolve: [String] = []

    @Option(
        help: ArgumentHelp(
            "Connect to TARGET_HOST:TARGET_PORT for requests to HOST:PORT, keeping the URL, Host and TLS name (repeatable).",
            valueName: "host:port:target_host:target_port"))
    var connectTo: [String] = []

    @Option(
        help: ArgumentHelp(
            "The most bytes per second up and down: a number, with k, m or g for KiB, MiB, GiB (curl's --limit-rate).",
            valueName: "rate"))
    var limitRate: String?

    @Flag(name: .customLong("http1.1"), help: "Speak HTTP/1.1 only.")
    var http1_1 = false

    @Flag(name: .customLong("http2"), help: "HTTP/2 over TLS when the server offers it, else HTTP/1.1 (the default).")
    var http2 = false

    @Flag(
        name: .customLong("http2-prior-knowledge"),
        help: "HTTP/2 from the first byte, also over plain http (h2c), for a server known to speak it.")
    var http2PriorKnowledge = false

    @Option(
        help: ArgumentHelp(
            "Go through this proxy: http://, https://, socks4://, socks4a://, socks5:// or socks5h:// (the proxy resolves names); \"\" for none. Default: the environment's http_proxy, https_proxy, all_proxy, no_proxy, as curl reads them.",
            valueName: "url"))
    var proxy: String?

    @Option(
        help: ArgumentHelp(
            "Hosts that bypass --proxy, comma-separated: example.com (and its subdomains), .internal, an address, or * for all.",
            valueName: "list"))
    var noproxy: String?

    @Option(
        help: ArgumentHelp(
            "The proxy's credentials, user:password (the password is asked for on a terminal when left out).",
            valueName: "user:password"))
    var proxyUser: String?

    @Option(
        help: ArgumentHelp("Trust the CA certificates in this PEM file for an https:// proxy.", valueName: "file"),
        completion: .file())
    var proxyCacert: String?

    func validate() throws {
        for (name, value) in [("--timeout", timeout), ("--connect-timeout", connectTimeout)] {
            if let value, !(value > 0 && value < 1e9) {
                throw ValidationError("\(name) must be a positive number of seconds")
            }
        }
        if let maxRedirects, maxRedirects < 0 { throw ValidationError("--max-redirects must not be negative") }
        if retries < 0 { throw ValidationError("--retries must not be negative") }
        _ = try publicKeyHashes()
    }

    /// Bytes per second from curl's `--limit-rate` form: a number, with k, m or g (binary).
    /// - Throws: `UsageError` for anything else, or a rate below 1.
    static func rate(_ text: String) throws -> Int {
        let units: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let unit = text.last.flatMap { units[Character($0.lowercased())] }
        let number = unit == nil ? Substring(text) : text.dropLast()
        guard let value = Double(number), value.isFinite, value * Double(unit ?? 1) >= 1,
            value * Double(unit ?? 1) < Double(Int.max)
        else {
            throw UsageError("--limit-rate \(text) is not a rate (such as 200k or 1.5m)")
        }
        return Int(value * Double(unit ?? 1))
    }

    /// The proxy the flags name, or the environment's.
    /// - Throws: `UsageError` for proxy flags without `--proxy`, or a proxy URL Satchel refuses.
    func proxyPolicy() throws -> ProxyPolicy {
        guard let proxy else {
            if noproxy != nil || proxyUser != nil || proxyCacert != nil {
                throw UsageError(
                    "--noproxy, --proxy-user and --proxy-cacert go with --proxy (the environment's proxy reads no_proxy)"
                )
            }
            return .environment
        }
        if proxy.isEmpty { return .direct }
        let credential = try proxyUser.map { text in
            let (user, password) = try CommandIO.userAndPassword(text, option: "--proxy-user")
            return Credential(user: user, password: password)
        }
        let bypass = (noproxy ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        do {
            return .through(
                try Proxy(proxy, credential: credential, bypass: bypass, certificateAuthoritiesPath: proxyCacert))
        } catch {
            throw UsageError("--proxy: \(error.message)")
        }
    }

    /// The pins as bare base64 digests.
    /// - Throws: `ValidationError` for a pin that is not the base64 of 32 bytes.
    func publicKeyHashes() throws -> [String] {
        try pins.flatMap { $0.split(separator: ";") }.map { pin in
            let bare = pin.hasPrefix("sha256//") ? String(pin.dropFirst(8)) : String(pin)
            guard Data(base64Encoded: bare)?.count == 32 else {
                throw ValidationError("--pin-sha256 '\(pin)' is not a base64 SHA-256 digest (sha256//BASE64)")
            }
            return bare
        }
    }

    /// The session configuration these flags describe.
    func configuration() throws -> SessionConfiguration {
        var configuration = SessionConfiguration()
        if let timeout { configuration.timeouts.request = .milliseconds(Int64(timeout * 1000)) }
        if let connectTimeout { configuration.timeouts.connect = .milliseconds(Int64(connectTimeout * 1000)) }
        if noFollow {
            configuration.redirectPolicy = .none
        } else if let maxRedirects {
            configuration.redirectPolicy = .follow(maximumRedirects: maxRedirects)
        }
        configuration.retryPolicy.retryLimit = retries
        var policy = SecurityPolicy.default
        let hashes = try publicKeyHashes()
        if !hashes.isEmpty { policy = .publicKeys(hashes) }
        policy.certificateAuthoritiesPath = cacert
        if insecure {
            policy.allowInvalidCertificates = true
            policy.validatesDomainName = false
        }
        configuration.securityPolicy = policy
        if let cert {
            configuration.clientIdentity = ClientIdentity(
                certificate: .file(cert), privateKey: key.map { .file($0) }, passphrase: pass, format: certType)
        } else if key != nil || pass != nil {
            throw UsageError("--key and --pass go with --cert")
        }
        configuration.proxy = try proxyPolicy()
        configuration.unixSocketPath = unixSocket
        do {
            configuration.hostOverrides =
                try resolve.map { try HostOverride(resolve: $0) } + connectTo.map { try HostOverride(connectTo: $0) }
        } catch let error as SatchelError {
            throw UsageError(error.message)
        }
        if let limitRate {
            let rate = try Self.rate(limitRate)
            configuration.rateLimit = RateLimit(upload: rate, download: rate)
        }
        switch (http1_1, http2, http2PriorKnowledge) {
        case (false, false, false), (false, true, false): configuration.httpVersion = .http2WhenOffered
        case (true, false, false): configuration.httpVersion = .http1_1
        case (false, false, true): configuration.httpVersion = .http2PriorKnowledge
        default: throw UsageError("--http1.1, --http2 and --http2-prior-knowledge exclude each other")
        }
        if let cache {
            configuration.cache = try HTTPCache(memoryCapacity: 0, directory: cache)
        } else if cachePolicy != nil {
            throw UsageError("--cache-policy goes with --cache")
        }
        if let cookieJar { configuration.cookieStore = CookieStore(.file(cookieJar)) }
        if noCookies { configuration.handlesCookies = false }
        return configuration
    }
}
