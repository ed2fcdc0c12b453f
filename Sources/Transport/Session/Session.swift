// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Sends requests and decodes responses through a registry (AFHTTPSessionManager's role).
///
/// A session owns one libcurl multi handle driven by its own thread: all its requests run
/// there concurrently, reusing connections (HTTP/2 multiplexing where the server offers it).
/// Requests are built by the request serializer (form by default, as AFNetworking), responses
/// validated and decoded by the response serializer (the registry's dispatching serializer by
/// default, so any registered format decodes). Methods are `async`; cancelling the calling task
/// cancels the transfer.
///
/// ```swift
/// let session = try Session(baseURL: "https://api.example.com/v1")
/// let user = try await session.get("users/42").decode(User.self)
/// ```
public final class Session: Sendable {
    /// The base URL relative references resolve against (a trailing slash added when it has a path).
    public let baseURL: String?
    /// Headers, timeouts and policies.
    public let configuration: SessionConfiguration
    /// The registry the serializers come from; its limits and validation apply.
    public let registry: Registry
    /// Turns parameters into requests (form by default).
    public let requestSerializer: any RequestSerializer
    /// Validates and decodes responses (the registry's dispatching serializer by default).
    public let responseSerializer: any ResponseSerializer

    /// The cookies the session's requests carry and its responses set: the configuration's
    /// ``SessionConfiguration/cookieStore``, or one of the session's own, in memory.
    public let cookieStore: CookieStore
    let engine: TransferEngine
    /// The request URL resolved last.
    let resolvedURLs = ResolvedURLCache()
    /// Spans and metrics of the requests, per ``SessionConfiguration/tracer`` and
    /// ``SessionConfiguration/metricsFactory``.
    let telemetry: SessionTelemetry

    /// Creates a session and starts its transfer thread.
    ///
    /// - Parameters:
    ///   - baseURL: The URL relative request URLs resolve against (RFC 3986); `nil` for
    ///     absolute URLs only.
    ///   - configuration: Headers, timeouts and policies.
    ///   - registry: Serializers, limits and validation (`import Satchel` adds an initializer
    ///     that defaults to `Registry.standard()`).
    ///   - requestSerializer: `nil` for the registry's `application/x-www-form-urlencoded`
    ///     request serializer (AFNetworking's default).
    ///   - responseSerializer: `nil` for `registry.dispatchingSerializer`.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a base URL that is not http(s), or
    ///   when `requestSerializer` is `nil` and the registry has no form request serializer;
    ///   ``SatchelError/Code/internal`` when libcurl cannot start.
    public convenience init(
        baseURL: String? = nil, configuration: SessionConfiguration = SessionConfiguration(),
        registry: Registry, requestSerializer: (any RequestSerializer)? = nil,
        responseSerializer: (any ResponseSerializer)? = nil
    ) throws(SatchelError) {
        try self.init(
            baseURL: baseURL, configuration: configuration, registry: registry, requestSerializer: requestSerializer,
            responseSerializer: responseSerializer, engineOf: nil)
    }

    /// A session on `engineOf`'s engine, when given: its transfers share that session's
    /// connections (the C API's setters make a session anew this way, keeping the connections).
    /// The engine stops when the last session on it goes, or at once with
    /// ``invalidateAndCancel()`` on any of them.
    package init(
        baseURL: String?, configuration: SessionConfiguration, registry: Registry,
        requestSerializer: (any RequestSerializer)? = nil, responseSerializer: (any ResponseSerializer)? = nil,
        engineOf: Session?
    ) throws(SatchelError) {
        self.baseURL = try baseURL.map { base throws(SatchelError) in try ResolvedURL.base(base) }
        self.configuration = configuration
        self.registry = registry
        self.telemetry = SessionTelemetry(tracer: configuration.tracer, metricsFactory: configuration.metricsFactory)
        guard let requestSerializer = requestSerializer ?? registry.requestSerializer(for: .formURLEncoded) else {
            throw SatchelError(
                .invalidArgument,
                "the registry has no request serializer for application/x-www-form-urlencoded: pass requestSerializer")
        }
        self.requestSerializer = requestSerializer
        self.responseSerializer = responseSerializer ?? registry.dispatchingSerializer
        for (name, value, least) in [
            ("maximumConnectionsPerHost", configuration.maximumConnectionsPerHost, 1),
            ("maximumConnections", configuration.maximumConnections, 1),
            ("connectionCacheSize", configuration.connectionCacheSize, 1),
            ("rateLimit.upload", configuration.rateLimit.upload, 1),
            ("rateLimit.download", configuration.rateLimit.download, 1),
        ] where (value ?? least) < least {
            throw SatchelError(.invalidArgument, "\(name) is \(value ?? 0); it must be at least \(least)")
        }
        for override in configuration.hostOverrides { try override.check() }
        cookieStore = configuration.cookieStore ?? CookieStore()
        if let previous = engineOf {
            engine = previous.engine
            engine.enqueue(.limit(Self.connectionLimits(configuration)))
        } else {
            engine = try TransferEngine(cookieStore: cookieStore, limits: Self.connectionLimits(configuration))
        }
        engine.adopt(cookieStore)
        for warning in cookieStore.takeWarnings() {
            for monitor in configuration.eventMonitors { monitor.sessionDidWarn(warning) }
        }
    }

    deinit {
        // Never blocks (deinit may run on the cooperative pool): the engine thread ends on its
        // own, and a queued cookie-file write completes on the store's queue.
        engine.release()
    }

    /// The connection limits of `configuration`, for the engine's multi handle.
    private static func connectionLimits(_ configuration: SessionConfiguration) -> TransferEngine.ConnectionLimits {
        .init(
            perHost: configuration.maximumConnectionsPerHost, total: configuration.maximumConnections,
            cacheSize: configuration.connectionCacheSize)
    }

    /// Cancels every transfer, stops the session's transfer thread and waits until libcurl's
    /// handles (connections, caches, the CA store) are released and the cookie file is written
    /// (URLSession's `invalidateAndCancel`). Requests sent afterwards fail with
    /// ``SatchelError/Code/cancelled``. It blocks its thread: from async code, prefer
    /// ``shutdown()``. Never call it from a progress callback.
    public func invalidateAndCancel() {
        engine.shutDown(waiting: true)
        cookieStore.flush()
    }

    /// Shuts the session down as ``invalidateAndCancel()`` does, without blocking a thread of
    /// the cooperative pool (async-http-client's `shutdown()`): running transfers end with
    /// ``SatchelError/Code/cancelled``, and it returns once libcurl's handles are released and
    /// the cookie file is written. Releasing the last reference to a session shuts it down too,
    /// in the background; `shutdown()` is how to know when it is done.
    ///
    /// ```swift
    /// let session = try Session(baseURL: "https://api.example.com")
    /// let user = try await session.get("users/42").decode(User.self)
    /// await session.shutdown()
    /// ```
    public func shutdown() async {
        await engine.shutDown()
        await cookieStore.flushed()
    }

    /// libcurl's version and features, such as `"libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 nghttp2/1.52.0"`.
    public static var libcurlVersion: String { CurlGlobal.version }
}
