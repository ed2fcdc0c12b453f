import ArgumentParser
import Satchel

/// `satchel`: encode and decode HTTP payloads through Satchel's serializer registry.
@main
struct SatchelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "satchel",
        abstract: "Encode and decode HTTP payloads through Satchel's serializer registry.",
        discussion: """
            Exit codes: 0 success; 64 usage error; 65 the input is malformed; 66 the input \
            cannot be read; 67 no serializer handles the media type; 68 a limit was exceeded; \
            69 (serve) the port is in use; 70 internal error; 71 (serve) the server cannot listen; 74 the output \
            cannot be written.
            """,
        version: DefaultHeaders.satchelVersion,
        subcommands: [Decode.self, Encode.self, Serve.self]
    )
}
