// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real proxy: PyPI's pproxy (installed by `scripts/setup` into `.venv/pproxy`), one process
/// serving an HTTP proxy (forwarding and `CONNECT`), the same over TLS, and a SOCKS5 proxy on free
/// loopback ports,
/// both requiring ``user`` and ``password`` (checked on every connection: `--auth 0`); killed
/// when released, or at once with ``kill()``, and gone with the test process (it exits when its
/// standard input, a pipe from here, closes).
public final class ProxyProcess: @unchecked Sendable {
    // Immutable after init; the process is only signalled.
    private let process = Process()
    private let input = Pipe()
    /// `http://127.0.0.1:PORT`, without credentials.
    public let http: String
    /// `socks5://127.0.0.1:PORT`, without credentials.
    public let socks: String
    /// `https://127.0.0.1:PORT`: the HTTP proxy over TLS with the test servers' `good`
    /// certificate (CA A; `127.0.0.1`, `localhost`).
    public let https: String
    /// The user both proxies require.
    public static let user = "ann"
    /// Its password.
    public static let password = "proxy-secret"

    /// Starts pproxy and waits until both ports accept connections.
    /// - Throws: `TestServers.StartError` when pproxy is missing or does not come up.
    public init() throws {
        let folder = TestServers.root.appendingPathComponent(".venv/pproxy")
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw TestServers.StartError("\(folder.path) is missing: run scripts/setup")
        }
        let script = """
            import asyncio.constants, os, socket, sys, threading
            sys.path.insert(0, sys.argv[1])
            # asyncio drops a TLS handshake not done in 60 s; a test process starved by the
            # sanitizer run's load can take longer, and the proxy must not be what fails it.
            asyncio.constants.SSL_HANDSHAKE_TIMEOUT = 600.0
            threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
            def free():
                s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port
            http, socks, https, auth = free(), free(), free(), f"{sys.argv[2]}:{sys.argv[3]}"
            print(http, socks, https, flush=True)
            sys.argv = ["pproxy", "--auth", "0", "--ssl", sys.argv[4], "-l", f"http://127.0.0.1:{http}#{auth}",
                        "-l", f"socks5://127.0.0.1:{socks}#{auth}", "-l", f"http+ssl://127.0.0.1:{https}#{auth}"]
            from pproxy.server import main
            main()
            """
        let servers = try TestServers.shared()
        let certificate = servers.certificates.good.path
        let key = servers.directory.appendingPathComponent("good-key.pem").path
        process.executableURL = VenvPython.executable
        process.arguments = ["-c", script, folder.path, Self.user, Self.password, "\(certificate),\(key)"]
        let output = Pipe()
        process.standardOutput = output
        // pproxy is quiet without -v; what it does print (a traceback, a dropped handshake) is
        // what a failing proxy test needs, so it goes to the test log.
        process.standardError = FileHandle.standardError
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let ports = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard ports.count >= 3 else {
            process.terminate()
            throw TestServers.StartError("pproxy did not start: \(String(decoding: line, as: UTF8.self))")
        }
        http = "http://127.0.0.1:\(ports[0])"
        socks = "socks5://127.0.0.1:\(ports[1])"
        https = "https://127.0.0.1:\(ports[2])"
        guard LoopbackPort.waitUntilListening(Array(ports.prefix(3)), while: process) else {
            kill()
            throw TestServers.StartError("pproxy did not listen on \(ports)")
        }
    }

    /// One proxy process for the whole test process, started on first use.
    public static func shared() throws -> ProxyProcess {
        try sharedProcess.withLock { shared in
            if let shared { return shared }
            let started = try ProxyProcess()
            shared = started
            return started
        }
    }

    private static let sharedProcess = Mutex<ProxyProcess?>(nil)

    /// Kills the proxy (SIGKILL): its connections drop mid-transfer.
    public func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { kill() }
}
