// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dispatch
import SatchelServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `satchel serve`: the embedded fixture server, up until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve fixture endpoints (echo, every format, batches, byte ranges) on loopback.",
        discussion: """
            Prints "Serving on http://127.0.0.1:PORT" on standard output (with --tls, the CA \
            file and the public-key pin on the next lines), then serves until interrupted \
            (SIGINT or SIGTERM: requests in flight finish, exit 0). GET / lists the endpoints; \
            Sources/Satchel/Satchel.docc/TestingWithSatchelServe.md describes them.

            Exit codes: 69 the port is in use; 71 the server cannot listen or set up TLS.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 0

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Flag(help: "Serve HTTPS with a throwaway certificate authority and leaf made at start.")
    var tls = false

    @Option(
        help: ArgumentHelp(
            "Listen on this unix domain socket instead of a port (reach it as http://localhost/ with --unix-socket).",
            valueName: "path"), completion: .file())
    var unix: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let signals: SignalWaiter
        let server: FixtureServer
        do {
            signals = try SignalWaiter(signals: [SIGINT, SIGTERM])
            var configuration = FixtureServerConfiguration(host: host, port: port, tls: tls)
            configuration.unixSocketPath = unix
            server = try await FixtureServer.start(configuration)
        } catch let error as FixtureServerError {
            throw Self.fail(error)
        } catch {
            throw CommandIO.fail(error)
        }
        var lines = ["Serving on \(unix.map { "unix:\($0)" } ?? server.baseURL)"]
        if let identity = server.tlsIdentity {
            lines.append("CA certificate: \(identity.certificateAuthorityPath)")
            lines.append("Public-key pin: \(identity.publicKeyPin)")
        }
        do {
            try CommandIO.write(Array((lines.joined(separator: "\n") + "\n").utf8))
        } catch {
            await server.stop()
            throw CommandIO.fail(error)
        }
        // Whichever comes first: a signal, or the server stopping on its own. (Unstructured
        // tasks, since awaiting a task's value does not end on cancellation.)
        let (events, event) = AsyncStream<Void>.makeStream()
        Task {
            await signals.next()
            event.yield()
        }
        Task {
            try? await server.waitUntilStopped()
            event.yield()
        }
        for await _ in events { break }
        await server.stop()
        do {
            try await server.waitUntilStopped()
        } catch {
            throw Self.fail(
                .cannotListen(
                    host: unix.map { "unix:\($0)" } ?? host, port: server.port, reason: "the server failed: \(error)"))
        }
    }

    /// Prints the error on one line of standard error and returns its exit code.
    private static func fail(_ error: FixtureServerError) -> ExitCode {
        let line = "satchel: \(error)\n"
        _ = line.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        if case .addressInUse = error { return ExitCode(69) }
        return ExitCode(71)
    }
}
