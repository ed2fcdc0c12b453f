import Foundation

/// Real HTTP and HTTPS servers on 127.0.0.1 for the Transport tests, run by
/// `scripts/test-servers.py` with the repository's `.venv` Python (`scripts/setup` installs it).
///
/// `TestServers.shared()` starts the script once per test process and keeps its standard input
/// open until the process ends; when the test process exits or dies, the script sees end of file
/// and stops every server it started. All URLs are `http(s)://127.0.0.1:PORT` with no path.
struct TestServers: Sendable {
    /// httpbin under gunicorn over plain HTTP (gthread worker, 32 threads, keep-alive).
    let httpbin: URL
    /// httpbin over TLS with `certificates.good` (signed by CA A; `localhost`, `127.0.0.1`, `::1`).
    let httpbinTLS: URL
    /// httpbin over TLS with `certificates.expired` (signed by CA A, right names, expired yesterday).
    let expiredTLS: URL
    /// httpbin over TLS with `certificates.wrongHost` (signed by CA A, valid only for `wrong.example`).
    let wrongHostTLS: URL
    /// The script's own HTTP/1.1 server: `/discard`, `/large/N`, `/redirect-cross`,
    /// `/echo-headers`, `/retry`, `/retry-count`, `/stall` (see `scripts/test-servers.py`).
    let fast: URL
    /// A second instance of the fast server: another origin, for cross-origin redirects.
    let fastOtherOrigin: URL
    /// PEM files, deleted when the servers stop.
    let certificates: Certificates
    /// Base64 SHA-256 of each certificate's DER SubjectPublicKeyInfo.
    let pins: Pins
    /// The script's temporary folder (certificates and keys), deleted when the servers stop.
    let directory: URL
    /// The process group of each gunicorn (master and worker), killed when the servers stop.
    let processGroups: [Int32]

    /// The certificate files: the two CAs and the leaf each TLS server presents.
    struct Certificates: Sendable, Decodable {
        /// CA "A", which signed every leaf.
        let caA: URL
        /// CA "B", unrelated to every server.
        let caB: URL
        /// `httpbinTLS`'s certificate.
        let good: URL
        /// `expiredTLS`'s certificate.
        let expired: URL
        /// `wrongHostTLS`'s certificate.
        let wrongHost: URL

        init(from decoder: any Decoder) throws {
            let paths = try decoder.singleValueContainer().decode([String: String].self)
            func file(_ name: String) throws -> URL {
                guard let path = paths[name] else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no \(name)"))
                }
                return URL(fileURLWithPath: path)
            }
            (caA, caB, good, expired, wrongHost) =
                (try file("caA"), try file("caB"), try file("good"), try file("expired"), try file("wrongHost"))
        }
    }

    /// Public-key pins: base64 SHA-256 of the DER SubjectPublicKeyInfo, as in libcurl's
    /// `CURLOPT_PINNEDPUBLICKEY` after its `sha256//` prefix (see `TestServers.curlPin`).
    struct Pins: Sendable, Decodable {
        let caA: String
        let caB: String
        let good: String
        let expired: String
        let wrongHost: String
    }

    /// Byte `index` of a `/large/N` body: `(index * 7) % 251`.
    static func largeByte(at index: Int) -> UInt8 { UInt8((index &* 7) % 251) }

    /// libcurl's `CURLOPT_PINNEDPUBLICKEY` value accepting any of `pins`: `sha256//A;sha256//B`.
    static func curlPin(_ pins: String...) -> String {
        pins.map { "sha256//\($0)" }.joined(separator: ";")
    }

    /// The servers of this test process, started on first use (about a second) and shared.
    ///
    /// - Throws: `TestServers.StartError` when `.venv` or the script is missing (run
    ///   `scripts/setup`) or a server did not start; every later call throws the same error.
    static func shared() throws -> TestServers {
        try started.get().servers
    }

    /// Starts a separate set of servers; they run until `Running.stop()` or this process ends.
    ///
    /// - Throws: `TestServers.StartError` as `shared()` does.
    static func launch() throws -> Running {
        let python = root.appendingPathComponent(".venv/bin/python")
        let script = root.appendingPathComponent("scripts/test-servers.py")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw StartError("\(python.path) is missing: run scripts/setup (it installs httpbin, gunicorn and trustme in .venv)")
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
            throw StartError("""
                scripts/test-servers.py did not start its servers (exit status \(process.terminationStatus); its \
                standard error is above). Run scripts/setup if httpbin, gunicorn or trustme is missing from .venv.
                """)
        }
        return Running(servers: servers, process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading)
    }

    /// A running `scripts/test-servers.py`: its servers and the standard input that keeps them up.
    // @unchecked Sendable: every stored property is a constant; `stop()` only closes a pipe and
    // waits for the process, which FileHandle and Process allow from any thread.
    final class Running: @unchecked Sendable {
        /// The servers it described.
        let servers: TestServers
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
        func stop() -> Int32 {
            try? input.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Why the servers could not be started.
    struct StartError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

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
        case httpbin, httpbinTLS, expiredTLS, wrongHostTLS, fast, fastOtherOrigin, certificates, pins, directory,
            processGroups
    }

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        httpbin = try values.decode(URL.self, forKey: .httpbin)
        httpbinTLS = try values.decode(URL.self, forKey: .httpbinTLS)
        expiredTLS = try values.decode(URL.self, forKey: .expiredTLS)
        wrongHostTLS = try values.decode(URL.self, forKey: .wrongHostTLS)
        fast = try values.decode(URL.self, forKey: .fast)
        fastOtherOrigin = try values.decode(URL.self, forKey: .fastOtherOrigin)
        certificates = try values.decode(Certificates.self, forKey: .certificates)
        pins = try values.decode(Pins.self, forKey: .pins)
        directory = URL(fileURLWithPath: try values.decode(String.self, forKey: .directory))
        processGroups = try values.decode([Int32].self, forKey: .processGroups)
    }
}
