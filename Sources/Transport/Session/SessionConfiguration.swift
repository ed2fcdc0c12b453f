// SPDX-License-Identifier: Apache-2.0
import CoreMetrics
import HTTPTypes
import SerializerRegistry
import Tracing

/// How a ``Session`` sends its requests: headers, timeouts and the policies for redirects,
/// retries and TLS trust.
public struct SessionConfiguration: Sendable {
    /// Headers added to every request that does not set them itself.
    public var defaultHeaders: HTTPFields = [:]
    /// Connect, whole-request and idle timeouts.
    public var timeouts = TransferTimeouts()
    /// Which redirects are followed and how far.
    public var redirectPolicy = RedirectPolicy()
    /// When failed requests are sent again: never unless asked, as with Alamofire,
    /// async-http-client, curl and URLSession; ``RetryPolicy/alamofire`` in one line turns on
    /// Alamofire's retries of idempotent requests.
    public var retryPolicy = RetryPolicy.disabled
    /// What changes every request before each attempt and may retry a failed one, in order,
    /// before the request's own (``RequestInterceptor``).
    public var interceptors: [any RequestInterceptor] = []
    /// How the server's certificate is trusted.
    public var securityPolicy = SecurityPolicy.default
    /// Security policies for particular hosts (Alamofire's `ServerTrustManager`): a key is a
    /// host (`api.example.com`) or a host and port (`127.0.0.1:8443`, which wins); a host with
    /// none gets ``securityPolicy``. AFNetworking's rules are checked per host.
    public var securityPolicies: [String: SecurityPolicy] = [:]
    /// The client certificate presented to TLS servers that ask for one; `nil` for none.
    public var clientIdentity: ClientIdentity?
    /// Client certificates for particular hosts, keyed as ``securityPolicies``; a host with
    /// none gets ``clientIdentity``.
    public var clientIdentities: [String: ClientIdentity] = [:]
    /// Credentials by host (`"api.example.com"`, in lower case) or host and port
    /// (`"127.0.0.1:8443"`, which wins), answered to that host's authentication challenges (AFNetworking's protection
    /// spaces); a request's own ``SessionRequest/credential`` replaces them.
    public var credentials: [String: Credential] = [:]
    /// Observers of each request's life (start, redirects, retries, metrics, completion).
    public var eventMonitors: [any EventMonitor] = []
    /// The tracer that makes a span of each request (OpenTelemetry's HTTP client conventions)
    /// and puts its context into the request's fields (W3C `traceparent` with an OpenTelemetry
    /// tracer). Defaults to the tracer bootstrapped with `InstrumentationSystem` when the
    /// configuration is made: with none, the no-op tracer, which the session skips at no cost;
    /// `nil` turns tracing off.
    public var tracer: (any Tracer)? = InstrumentationSystem.tracer
    /// Where the session's counters and timers go (`satchel.requests`, `satchel.request.duration`,
    /// …: Sources/Satchel/Satchel.docc/Sessions.md). Defaults to swift-metrics' factory when the configuration is made
    /// (the task's, else the bootstrapped one); with none bootstrapped nothing is recorded;
    /// `nil` turns metrics off.
    public var metricsFactory: (any MetricsFactory)? = MetricsSystem.factory
    /// Whether responses may arrive compressed (gzip, deflate, br, zstd — whatever this libcurl
    /// decodes); they are decoded before any serializer sees them. Downloads always ask for the
    /// identity encoding so byte ranges refer to the stored bytes.
    public var acceptsCompressedResponses = true
    /// Which HTTP versions are spoken: HTTP/2 over TLS when the server offers it, unless set
    /// (``HTTPVersionPolicy``).
    public var httpVersion = HTTPVersionPolicy.http2WhenOffered
    /// The most connections open to one host at once (URLSession's
    /// `httpMaximumConnectionsPerHost`); further requests wait for one. `nil`: no limit. Over
    /// HTTP/2 a connection carries many requests.
    public var maximumConnectionsPerHost: Int?
    /// The most connections open at once, all hosts together; `nil`: no limit.
    public var maximumConnections: Int?
    /// The most idle connections kept for reuse; the oldest is closed to make room. `nil`:
    /// libcurl's (four per transfer running).
    public var connectionCacheSize: Int?
    /// How long an idle connection may wait to be reused before it is closed (libcurl's 118 s).
    public var idleConnectionLifetime: Duration = .seconds(118)
    /// Where connections for particular hosts go instead of where DNS says (curl's
    /// `--resolve` and `--connect-to`: ``HostOverride``).
    public var hostOverrides: [HostOverride] = []
    /// The most bytes per second each transfer sends and receives; a request's own wins.
    public var rateLimit = RateLimit()
    /// Whether a request whose body is 1 MiB or more, or of unknown length, first asks with
    /// `Expect: 100-continue` and waits (up to a second) for the server's go-ahead, so a server
    /// that refuses it (401, 413) does so before the body is sent. Off by default, as in
    /// URLSession: it costs a round trip.
    public var sendsExpectContinue = false
    /// A unix domain socket every request goes through instead of TCP (curl's `--unix-socket`,
    /// as Docker's API is reached): the URL still names the scheme, host and path
    /// (`http://localhost/v1.43/info`), and no proxy is used. `nil`, the default, for TCP.
    public var unixSocketPath: String?
    /// Whether and through which proxy requests travel: the environment's (`http_proxy`,
    /// `https_proxy`, `no_proxy`, … as curl reads them) unless set (``ProxyPolicy``).
    public var proxy = ProxyPolicy.environment
    /// Whether cookies set by responses are kept for this session and sent back by domain
    /// (NSURLSession's `HTTPShouldHandleCookies`).
    public var handlesCookies = true
    /// The cookie store, shared by every session given it, in memory or also in a file that the
    /// next process reads (``CookieStore``); `nil`, the default, gives each session its own,
    /// in memory.
    public var cookieStore: CookieStore?
    /// A private HTTP cache (RFC 9111) shared by every session given it, in memory, in a
    /// directory, or both (``HTTPCache``); `nil`, the default, caches nothing.
    public var cache: HTTPCache?
    /// The least time between two progress reports of one transfer (the final one always comes).
    public var progressInterval: Duration = .milliseconds(100)
    /// Whether a download's file is flushed to the disk before it is renamed into place
    /// (``DownloadDurability/synced``, the default) or not.
    public var downloadDurability = DownloadDurability.synced

    /// The defaults: AFNetworking's and Alamofire's where they have one.
    public init() {}
}

/// The three ways a transfer can take too long.
public struct TransferTimeouts: Sendable, Hashable {
    /// Longest time to establish the connection (and TLS); `nil` for libcurl's 300 s.
    public var connect: Duration? = .seconds(60)
    /// Longest time for the whole request, body included, across every redirect, retry and
    /// wait between retries (a retry that would start after it is not made); `nil` for no limit
    /// (NSURLSession's `timeoutIntervalForResource` is 7 days).
    public var request: Duration? = nil
    /// Longest time without a byte in either direction once connected
    /// (NSURLSession's `timeoutIntervalForRequest`, 60 s); `nil` for no limit.
    public var idle: Duration? = .seconds(60)

    /// Creates timeouts; unspecified ones keep their defaults.
    public init(connect: Duration? = .seconds(60), request: Duration? = nil, idle: Duration? = .seconds(60)) {
        self.connect = connect
        self.request = request
        self.idle = idle
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 for any positive duration.
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds == 0 && attoseconds > 0 ? 1 : Int(clamping: milliseconds)
    }
}
