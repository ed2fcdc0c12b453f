// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real nginx (installed by `scripts/setup`) in front of the fast test server: HTTP/2 over
/// TLS (ALPN, the test servers' `good` certificate from CA A), HTTP/2 over plain TCP with prior
/// knowledge (h2c), and HTTP/1.1 over plain TCP, each proxying every path to the fast server with
/// request and response bodies streamed (no buffering). Its access log names the connection of
/// each request (``connections(forRequestsContaining:)``). Stopped when released, and with the
/// test process: nginx runs under a shell that kills it when its standard input, a pipe from
/// here, closes.
public final class NginxProcess: @unchecked Sendable {
    // Immutable after init; the pipe is closed in deinit.
    private let process = Process()
    private let input = Pipe()
    private let folder: URL
    /// `https://127.0.0.1:PORT`: HTTP/2 or HTTP/1.1, as the client's ALPN asks.
    public let tls: URL
    /// `http://127.0.0.1:PORT`: HTTP/2 with prior knowledge only.
    public let h2c: URL
    /// `http://127.0.0.1:PORT`: HTTP/1.1.
    public let plain: URL
    /// A unix domain socket serving HTTP/1.1, as `plain` does.
    public let unixSocket: String

    /// Writes the configuration, starts nginx and waits until its three ports accept.
    /// - Throws: `TestServers.StartError` when nginx is missing or does not come up.
    public init() throws {
        let servers = try TestServers.shared()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ports = (0..<3).map { _ in LoopbackPort.free() }
        let upstream = servers.fast.port ?? 0
        let prefix = folder.path
        let certificate = servers.certificates.good.path
        let key = servers.directory.appendingPathComponent("good-key.pem").path
        let configuration = """
            daemon off; master_process off; worker_processes 1;
            pid \(prefix)/nginx.pid; error_log \(prefix)/error.log;
            events { worker_connections 1024; }
            http {
              log_format connections '$connection $server_protocol $status $request_uri';
              access_log \(prefix)/access.log connections;
              client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
              fastcgi_temp_path \(prefix)/fastcgi; uwsgi_temp_path \(prefix)/uwsgi; scgi_temp_path \(prefix)/scgi;
              client_max_body_size 0; keepalive_requests 100000; http2_max_concurrent_streams 128;
              proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host;
              proxy_request_buffering off; proxy_buffering off; proxy_read_timeout 120s;
              upstream fast { server 127.0.0.1:\(upstream); keepalive 32; }
              server {
                listen 127.0.0.1:\(ports[0]) ssl http2;
                ssl_certificate \(certificate); ssl_certificate_key \(key);
                location / { proxy_pass http://fast; }
              }
              server { listen 127.0.0.1:\(ports[1]) http2; location / { proxy_pass http://fast; } }
              server {
                listen 127.0.0.1:\(ports[2]); listen unix:\(prefix)/nginx.sock;
                location / { proxy_pass http://fast; }
              }
            }
            """
        let path = folder.appendingPathComponent("nginx.conf")
        try configuration.write(to: path, atomically: true, encoding: .utf8)
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile)
        else { throw TestServers.StartError("nginx is missing: run scripts/setup") }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "\"$0\" -p \"$1\" -c \"$2\" </dev/null & nginx=$!; cat >/dev/null; kill -9 $nginx; wait $nginx",
            nginx, prefix, path.path,
        ]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        tls = URL(string: "https://127.0.0.1:\(ports[0])")!
        h2c = URL(string: "http://127.0.0.1:\(ports[1])")!
        plain = URL(string: "http://127.0.0.1:\(ports[2])")!
        unixSocket = "\(prefix)/nginx.sock"
        guard LoopbackPort.waitUntilListening(ports, while: process) else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            throw TestServers.StartError("nginx did not start: \(log)")
        }
    }

    deinit {
        // The shell kills nginx (SIGKILL: in single-process mode nginx does not always act on
        // SIGTERM) once its input ends.
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// One nginx for the whole test process, started on first use.
    public static func shared() throws -> NginxProcess {
        try sharedProcess.withLock { shared in
            if let shared { return shared }
            let started = try NginxProcess()
            shared = started
            return started
        }
    }

    private static let sharedProcess = Mutex<NginxProcess?>(nil)

    /// The access log's lines: connection number, protocol, status, request URI.
    public func accessLog() throws -> [(connection: Int, protocolName: String, status: Int, uri: String)] {
        let text = try String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard fields.count == 4, let connection = Int(fields[0]), let status = Int(fields[2]) else { return nil }
            return (connection, fields[1], status, fields[3])
        }
    }

    /// The distinct connections that carried the logged requests whose URI contains `marker`,
    /// and how many such requests there were.
    public func connections(forRequestsContaining marker: String) throws -> (connections: Set<Int>, requests: Int) {
        let lines = try accessLog().filter { $0.uri.contains(marker) }
        return (Set(lines.map(\.connection)), lines.count)
    }
}

/// Free loopback ports, and whether one accepts connections.
public enum LoopbackPort {
    /// A port no socket is bound to on 127.0.0.1 right now.
    public static func free() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 ? getsockname(descriptor, pointer, &length) : -1
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    public static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Waits until every one of `ports` accepts connections, polling every 20 ms; false when
    /// `process` ends first or a minute passes.
    ///
    /// The minute is a guard against a server that never listens, not a speed limit: under the
    /// sanitized run's load a Python or nginx start can take seconds.
    public static func waitUntilListening(_ ports: [Int], while process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while !ports.allSatisfy(accepts) {
            guard Date() < deadline, process.isRunning else { return false }
            usleep(20_000)
        }
        return true
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
