import ArgumentParser
import Satchel

/// `satchel`: encode and decode HTTP payloads through Satchel's serializer registry.
@main
struct SatchelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "satchel",
        abstract: "Encode and decode HTTP payloads through Satchel's serializer registry.",
        discussion: """
            Exit codes: 0 success; 64 usage error; 65 the input is malformed; 66 the input \
            cannot be read; 67 no serializer handles the media type; 68 a limit was exceeded; \
            70 internal error; 74 the output cannot be written.
            """,
        version: DefaultHeaders.satchelVersion,
        subcommands: [Decode.self, Encode.self]
    )
}
