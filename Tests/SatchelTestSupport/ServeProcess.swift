// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A `satchel serve` process (the built binary) on a free loopback port, and what it printed;
/// stopped with SIGINT when released.
public final class ServeProcess: @unchecked Sendable {
    // Immutable after init; the process is only signalled in deinit. Its output goes to a pipe and
    // /dev/null, never to the test process's own (`swift test` waits for those to close).
    private let process = Process()
    /// The base URL, such as `http://127.0.0.1:41234`.
    public let url: String
    /// The CA certificate file of `--tls`, or `nil`.
    public let certificateAuthority: String?
    /// The server key's public-key pin (base64 SHA-256) of `--tls`, or `nil`.
    public let pin: String?
    /// The server's process identifier.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The unix domain socket of `--unix`, or `nil`; ``url`` is then `http://localhost`.
    public let unixSocketPath: String?

    /// Starts `satchel serve --port 0` (with `--tls` when `tls`, on a unix socket in a fresh
    /// temporary folder when `unixSocket`) and reads its first lines.
    public init(tls: Bool = false, unixSocket: Bool = false) throws {
        unixSocketPath =
            unixSocket
            ? FileManager.default.temporaryDirectory.appendingPathComponent("satchel-\(UUID().uuidString).sock").path
            : nil
        process.executableURL = BuiltProducts.satchel
        process.arguments =
            ["serve", "--port", "0"] + (tls ? ["--tls"] : []) + (unixSocketPath.map { ["--unix", $0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let expected = tls ? 3 : 1
        var lines: [String] = []
        var buffer = Data()
        while lines.count < expected {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
        }
        guard lines.count == expected, lines[0].hasPrefix("Serving on ") else {
            process.terminate()
            throw CocoaError(
                .fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "satchel serve printed \(lines)"])
        }
        let served = String(lines[0].dropFirst("Serving on ".count))
        url = served.hasPrefix("unix:") ? (tls ? "https://localhost" : "http://localhost") : served
        certificateAuthority = tls ? String(lines[1].split(separator: " ").last ?? "") : nil
        pin = tls ? String(lines[2].split(separator: " ").last ?? "") : nil
    }

    deinit {
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }
}
