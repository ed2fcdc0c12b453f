// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Real HTTP and HTTPS servers on 127.0.0.1 for the Transport tests, run by
/// `scripts/test-servers.py` with the repository's `.venv` Python (`scripts/setup` installs it).
///
/// `TestServers.shared()` starts the script once per test process and keeps its standard input
/// open until the process ends; when the test process exits or dies, the script sees end of file
/// and stops every server it started. All URLs are `http(s)://127.0.0.1:PORT` with no path.
public struct TestServers: Sendable {
    /// httpbin under gunicorn over plain HTTP (gthread worker, 32 threads, keep-alive).
    public let httpbin: URL
    /// httpbin over TLS with `certificates.good` (signed by CA A; `localhost`, `127.0.0.1`, `::1`).
    public let httpbinTLS: URL
    /// httpbin over TLS with `certificates.expired` (signed by CA A, right names, expired yesterday).
    public let expiredTLS: URL
    /// httpbin over TLS with `certificates.wrongHost` (signed by CA A, valid only for `wrong.example`).
    public let wrongHostTLS: URL
    /// The script's own HTTP/1.1 server: `/discard`, `/large/N`, `/redirect-cross`,
    /// `/echo-headers`, `/retry`, `/retry-count`, `/stall` (see `scripts/test-servers.py`).
    public let fast: URL
    /// A second instance of the fast server: another origin, for cross-origin redirects.
    public let fastOtherOrigin: URL
    /// A third instance on 127.0.0.2: a host libcurl does not count as a secure context over
    /// plain HTTP (only `localhost`, `127.0.0.1` and `::1` are), for `Secure` cookies.
    public let fastPlainHost: URL
    /// The fast server over TLS (`certificates.good`) requiring a client certificate from CA A.
    public let fastMutualTLS: URL
    /// The passphrase of `certificates.clientKeyEncrypted`.
    public let clientKeyPassphrase: String
    /// PEM files, deleted when the servers stop.
    public let certificates: Certificates
    /// Base64 SHA-256 of each certificate's DER SubjectPublicKeyInfo.
    public let pins: Pins
    /// The script's temporary folder (certificates and keys), deleted when the servers stop.
    public let directory: URL
    /// The process group of each gunicorn (master and worker), killed when the servers stop.
    public let processGroups: [Int32]

    /// The certificate files: the two CAs and the leaf each TLS server presents.
    public struct Certificates: Sendable, Decodable {
        /// CA "A", which signed every leaf.
        public let caA: URL
        /// CA "B", unrelated to every server.
        public let caB: URL
        /// `httpbinTLS`'s certificate.
        public let good: URL
        /// `expiredTLS`'s certificate.
        public let expired: URL
        /// `wrongHostTLS`'s certificate.
        public let wrongHost: URL
        /// A client certificate from CA A (`client.satchel.test`), which `fastMutualTLS` accepts,
        /// its key, and the key encrypted with `clientKeyPassphrase`.
        public let client: URL
        public let clientKey: URL
        public let clientKeyEncrypted: URL
        /// The client certificate and key as a PKCS #12 bundle (`clientKeyPassphrase`).
        public let clientBundle: URL
        /// A client certificate from CA B, which `fastMutualTLS` refuses, and its key.
        public let clientOtherCA: URL
        public let clientOtherCAKey: URL

        public init(from decoder: any Decoder) throws {
            let paths = try decoder.singleValueContainer().decode([String: String].self)
            func file(_ name: String) throws -> URL {
                guard let path = paths[name] else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "no \(name)"))
                }
                return URL(fileURLWithPath: path)
            }
            (caA, caB, good, expired, wrongHost) =
                (try file("caA"), try file("caB"), try file("good"), try file("expired"), try file("wrongHost"))
            (client, clientKey, clientKeyEncrypted, clientOtherCA, clientOtherCAKey, clientBundle) = (
                try file("client"), try file("clientKey"), try file("clientKeyEncrypted"), try file("clientOtherCA"),
                try file("clientOtherCAKey"), try file("clientBundle")
            )
        }
    }

    /// Public-key pins: base64 SHA-256 of the DER SubjectPublicKeyInfo, as in libcurl's
    /// `CURLOPT_PINNEDPUBLICKEY` after its `sha256//` prefix (see `TestServers.curlPin`).
    public struct Pins: Sendable, Decodable {
        public let caA: String
        public let caB: String
        public let good: String
        public let expired: String
        public let wrongHost: String
    }

    /// Byte `index` of a `/large/N` body: `(index * 7) % 251`.
    public static func largeByte(at index: Int) -> UInt8 { UInt8((index &* 7) % 251) }

    /// libcurl's `CURLOPT_PINNEDPUBLICKEY` value accepting any of `pins`: `sha256//A;sha256//B`.
    public static func curlPin(_ pins: String...) -> String {
        pins.map { "sha256//\($0)" }.joined(separator: ";")
    }

    /// The servers of this test process, started on first use (about a second) and shared.
    ///
    /// - Throws: `TestServers.StartError` when `.venv` or the script is missing (run
    ///   `scripts/setup`) or a server did not start; every later call throws the same error.
    public static func shared() throws -> TestServers {
        try started.get().servers
    }

    /// Starts a separate set of servers; they run until `Running.stop()` or this process ends.
    ///
    /// - Throws: `TestServers.StartError` as `shared()` does.
    public static func launch() throws -> Running {
        let python = root.appendingPathComponent(".venv/bin/python")
        let script = root.appendingPathComponent("scripts/test-servers.py")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw StartError(
                "\(python.path) is missing: run scripts/setup (it installs httpbin, gunicorn and trustme in .venv)")
        }
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw StartError("\(script.path) is missing")
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw StartError("cannot run \(script.path): \(error)")
        }
        guard let line = readLine(from: output.fileHandleForReading),
            let servers = try? JSONDecoder().decode(TestServers.self, from: line)
        else {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            throw StartError(
                """
                scripts/test-servers.py did not start its servers (exit status \(process.terminationStatus); its \
                standard error is above). Run scripts/setup if httpbin, gunicorn or trustme is missing from .venv.
                """)
        }
        return Running(
            servers: servers, process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading)
    }

    /// A running `scripts/test-servers.py`: its servers and the standard input that keeps them up.
    // @unchecked Sendable: every stored property is a constant; `stop()` only closes a pipe and
    // waits for the process, which FileHandle and Process allow from any thread.
    public final class Running: @unchecked Sendable {
        /// The servers it described.
        public let servers: TestServers
        private let process: Process
        private let input: FileHandle
        /// Kept so the script never writes to a closed pipe.
        private let output: FileHandle

        fileprivate init(servers: TestServers, process: Process, input: FileHandle, output: FileHandle) {
            self.servers = servers
            self.process = process
            self.input = input
            self.output = output
        }

        /// Closes the script's standard input, which stops its servers; returns its exit status.
        @discardableResult
        public func stop() -> Int32 {
            try? input.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Why the servers could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The repository's root folder (Tools/Tests/SatchelTestSupport links this file: the link is
    /// resolved first).
    public static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Started once, kept (with its standard input open) for the life of the process.
    private static let started = Result { try launch() }

    /// The first line `handle` gives, without its newline; nil at end of file before one.
    private static func readLine(from handle: FileHandle) -> Data? {
        var line = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            line.append(chunk)
            if let newline = line.firstIndex(of: UInt8(ascii: "\n")) {
                return line[..<newline]
            }
        }
    }
}

extension TestServers: Decodable {
    private enum CodingKeys: String, CodingKey {
        case httpbin, httpbinTLS, expiredTLS, wrongHostTLS, fast, fastOtherOrigin, fastPlainHost, fastMutualTLS,
            clientKeyPassphrase, certificates, pins, directory, processGroups
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        httpbin = try values.decode(URL.self, forKey: .httpbin)
        httpbinTLS = try values.decode(URL.self, forKey: .httpbinTLS)
        expiredTLS = try values.decode(URL.self, forKey: .expiredTLS)
        wrongHostTLS = try values.decode(URL.self, forKey: .wrongHostTLS)
        fast = try values.decode(URL.self, forKey: .fast)
        fastOtherOrigin = try values.decode(URL.self, forKey: .fastOtherOrigin)
        fastPlainHost = try values.decode(URL.self, forKey: .fastPlainHost)
        fastMutualTLS = try values.decode(URL.self, forKey: .fastMutualTLS)
        clientKeyPassphrase = try values.decode(String.self, forKey: .clientKeyPassphrase)
        certificates = try values.decode(Certificates.self, forKey: .certificates)
        pins = try values.decode(Pins.self, forKey: .pins)
        directory = URL(fileURLWithPath: try values.decode(String.self, forKey: .directory))
        processGroups = try values.decode([Int32].self, forKey: .processGroups)
    }
}
