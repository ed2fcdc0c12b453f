// SPDX-License-Identifier: Apache-2.0
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import Satchel
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The embedded HTTP server behind `satchel serve`: fixture endpoints for every format Satchel
/// reads and writes, on loopback, built on Hummingbird (Sources/Satchel/Satchel.docc/TestingWithSatchelServe.md lists the endpoints).
///
/// ```swift
/// let server = try await FixtureServer.start(FixtureServerConfiguration(tls: true))
/// let session = try Session(baseURL: server.baseURL, configuration: …)  // trust server.tlsIdentity
/// await server.stop()
/// ```
public final class FixtureServer: Sendable {
    /// `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT` (IPv6 hosts in brackets); on a unix
    /// socket, `http://localhost` (reached through the socket).
    public let baseURL: String
    /// The port the server listens on (the free one picked when the configuration said 0).
    public let port: Int
    /// With TLS, the generated certificate authority and the leaf's public-key pin.
    public let tlsIdentity: FixtureTLSIdentity?
    /// The configuration the server was started with.
    public let configuration: FixtureServerConfiguration

    private let group: ServiceGroup
    private let runTask: Task<Void, any Error>

    private init(
        configuration: FixtureServerConfiguration, port: Int, tlsIdentity: FixtureTLSIdentity?,
        group: ServiceGroup, runTask: Task<Void, any Error>
    ) {
        self.configuration = configuration
        self.port = port
        self.tlsIdentity = tlsIdentity
        self.group = group
        self.runTask = runTask
        if configuration.unixSocketPath != nil {
            baseURL = "\(configuration.tls ? "https" : "http")://localhost"
        } else {
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            baseURL = "\(configuration.tls ? "https" : "http")://\(host):\(port)"
        }
    }

    deinit {
        // A server dropped without stop() must not leave its CA file behind.
        tlsIdentity?.removeFiles()
    }

    /// Starts a server and returns once it is listening.
    ///
    /// - Parameter configuration: Address, port (0 for a free one), TLS, limits and caps.
    /// - Returns: The running server.
    /// - Throws: ``FixtureServerError/addressInUse(host:port:)`` when the port is taken,
    ///   ``FixtureServerError/cannotListen(host:port:reason:)`` for another bind failure,
    ///   ``FixtureServerError/tlsSetup(_:)`` when the certificates cannot be made, and
    ///   ``FixtureServerError/invalidConfiguration(_:)`` for a port outside 0…65535.
    public static func start(_ configuration: FixtureServerConfiguration) async throws -> FixtureServer {
        guard (0...65535).contains(configuration.port) else {
            throw FixtureServerError.invalidConfiguration("the port \(configuration.port) is not in 0…65535")
        }
        let identity = configuration.tls ? try FixtureTLSIdentity.generate() : nil
        do {
            let endpoints = FixtureEndpoints(
                configuration: configuration, registry: .standard(limits: configuration.limits),
                images: try FixtureImages())
            var logger = Logger(label: "satchel.serve")
            logger.logLevel = .critical
            let address: BindAddress
            if let path = configuration.unixSocketPath {
                try removeStaleSocket(at: path)
                address = .unixDomainSocket(path: path)
            } else {
                address = .hostname(configuration.host, port: configuration.port)
            }
            let (ports, portContinuation) = AsyncStream<Int>.makeStream()
            let application = Application(
                responder: FixtureResponder(endpoints: endpoints),
                server: try serverBuilder(identity),
                configuration: ApplicationConfiguration(address: address, serverName: "satchel-serve"),
                onServerRunning: { channel in
                    portContinuation.yield(channel.localAddress?.port ?? 0)
                    portContinuation.finish()
                },
                logger: logger)
            var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: logger)
            groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
            let group = ServiceGroup(configuration: groupConfiguration)
            let runTask = Task {
                defer { portContinuation.finish() }
                try await group.run()
            }
            var iterator = ports.makeAsyncIterator()
            if let port = await iterator.next() {
                return FixtureServer(
                    configuration: configuration, port: port, tlsIdentity: identity, group: group, runTask: runTask)
            }
            do {
                try await runTask.value
            } catch {
                throw listenError(error, configuration)
            }
            let (host, port) = place(configuration)
            throw FixtureServerError.cannotListen(host: host, port: port, reason: "the server stopped before listening")
        } catch {
            identity?.removeFiles()
            throw error
        }
    }

    /// Stops accepting connections, lets requests in flight finish (up to the configured grace
    /// period, then closes them) and removes the TLS files and the unix socket. Calling it again does nothing more.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await runTask.value
        tlsIdentity?.removeFiles()
        if let path = configuration.unixSocketPath { try? Self.removeStaleSocket(at: path) }
    }

    /// Returns when the server has stopped (after ``stop()``, or after a failure).
    ///
    /// - Throws: The error the server failed with, if it did not stop gracefully.
    public func waitUntilStopped() async throws {
        try await runTask.value
    }

    /// Plain HTTP/1.1, or HTTP/1.1 over TLS with the generated leaf.
    private static func serverBuilder(_ identity: FixtureTLSIdentity?) throws -> HTTPServerBuilder {
        guard let identity else { return .http1() }
        do {
            let certificate = try NIOSSLCertificate(bytes: Array(identity.leafCertificatePEM.utf8), format: .pem)
            let key = try NIOSSLPrivateKey(bytes: Array(identity.leafPrivateKeyPEM.utf8), format: .pem)
            let tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
            return try .tls(.http1(), tlsConfiguration: tls)
        } catch {
            throw FixtureServerError.tlsSetup("\(error)")
        }
    }

    /// Where the configuration listens, for errors: the host and port, or `unix:PATH` and 0.
    private static func place(_ configuration: FixtureServerConfiguration) -> (host: String, port: Int) {
        if let path = configuration.unixSocketPath { return ("unix:\(path)", 0) }
        return (configuration.host, configuration.port)
    }

    /// Removes a socket file left at `path` by a server that is gone, so the bind can succeed.
    /// - Throws: ``FixtureServerError/cannotListen(host:port:reason:)`` when `path` holds
    ///   something else than a socket (it is left alone).
    private static func removeStaleSocket(at path: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw FixtureServerError.cannotListen(
                host: "unix:\(path)", port: 0, reason: "the path exists and is not a socket")
        }
        unlink(path)
    }

    /// The ``FixtureServerError`` for a failure to start listening.
    private static func listenError(
        _ error: any Error, _ configuration: FixtureServerConfiguration
    ) -> FixtureServerError {
        let (host, port) = place(configuration)
        if let ioError = error as? IOError {
            if ioError.errnoCode == EADDRINUSE { return .addressInUse(host: host, port: port) }
            return .cannotListen(host: host, port: port, reason: String(cString: strerror(ioError.errnoCode)))
        }
        return .cannotListen(host: host, port: port, reason: "\(error)")
    }
}
