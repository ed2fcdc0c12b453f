// SPDX-License-Identifier: Apache-2.0
import Satchel

/// Where and how a ``FixtureServer`` listens, and the bounds it enforces.
public struct FixtureServerConfiguration: Sendable {
    /// The address to bind; loopback by default.
    public var host = "127.0.0.1"
    /// The port to bind; `0` picks a free one (read it back from ``FixtureServer/port``).
    public var port = 0
    /// Whether to serve HTTPS with a certificate generated at start (see ``FixtureTLSIdentity``).
    public var tls = false
    /// A unix domain socket to listen on instead of ``host`` and ``port``: a stale socket file
    /// there is replaced; any other file is an error. Clients reach it as `http://localhost/`
    /// through the socket (curl's `--unix-socket`, Satchel's `unixSocketPath`).
    public var unixSocketPath: String?
    /// The bounds request bodies are read and decoded within; `maxBodyBytes` is also the
    /// largest request body accepted (413 beyond it).
    public var limits: Limits = .default
    /// The largest `N` of `/bytes/N` (4 GiB by default).
    public var maxStreamBytes: Int64 = 4 << 30
    /// The longest `/delay/S`, in seconds.
    public var maxDelaySeconds = 30
    /// The largest `N` of `/redirect/N`.
    public var maxRedirects = 32
    /// The longest a graceful ``FixtureServer/stop()`` waits for requests in flight before
    /// closing their connections.
    public var shutdownGracePeriod: Duration = .seconds(5)

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: The address to bind.
    ///   - port: The port to bind; `0` for a free one.
    ///   - tls: Whether to serve HTTPS with a generated certificate.
    public init(host: String = "127.0.0.1", port: Int = 0, tls: Bool = false) {
        self.host = host
        self.port = port
        self.tls = tls
    }
}
