// SPDX-License-Identifier: Apache-2.0
/// One fuzz target: a name for the command line and the function run on each input.
///
/// A target calls a real public entry point under ``FuzzLimits/tight``, accepts any thrown
/// ``SatchelError`` and traps (through ``FuzzCheck``) on everything that is a bug: another
/// error type, a chunked parse that disagrees with the whole one, a round trip that changes the
/// value.
struct FuzzTarget: Sendable {
    /// The name given to `--target=` and `scripts/fuzz`.
    let name: String
    /// One line on what the target exercises, for `scripts/fuzz list`.
    let summary: String
    /// Runs the target on one input.
    let run: @Sendable (FuzzInput) -> Void

    /// Every target, in the order `scripts/fuzz all` runs them.
    static let all: [FuzzTarget] = [
        .form, .json, .xmlDocument, .xmlEvents, .plistXML, .plistBinary, .png, .jpeg,
        .multipart, .compound, .httpMessage, .mediaType, .typed, .eventStream, .jsonLines, .jsonSequence,
        .jsonElements, .xmlElements,
    ]

    /// The target called `name`, if there is one.
    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
