// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `satchel`: encode, decode and send HTTP payloads through Satchel's serializer registry.
@main
struct SatchelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "satchel",
        abstract: "Encode, decode and send HTTP payloads through Satchel's serializer registry.",
        discussion: """
            Exit codes: 0 success; 64 usage error; 65 the input is malformed; 66 the input \
            cannot be read; 67 no serializer handles the media type; 68 a limit was exceeded; \
            69 (serve) the port is in use; 70 internal error; 71 (serve) the server cannot \
            listen; 74 the output cannot be written. 'satchel request' adds curl's transfer \
            codes: 6 cannot resolve host, 7 cannot connect, 22 HTTP status not acceptable, 28 \
            timed out, 35 TLS handshake failed, 47 too many redirects, 56 network failure, 60 \
            certificate or pin rejected, 130 interrupted. 'satchel demo' exits 1 when a step fails.
            """,
        version: DefaultHeaders.satchelVersion,
        subcommands: [Decode.self, Encode.self, Request.self, Serve.self, Demo.self]
    )

    /// Runs the command; a command-line error is one line on standard error (`satchel: …`)
    /// with argument-parser's exit status (64), instead of the message and the usage.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode {
                exit(withError: error)
            }
            let message = self.message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            CommandIO.writeError(Array("satchel: \(message)\n".utf8))
            Glibc.exit(code.rawValue)
        }
    }
}
