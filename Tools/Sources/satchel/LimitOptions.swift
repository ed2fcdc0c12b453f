// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Satchel

/// Command-line flags for ``Limits``.
struct LimitOptions: ParsableArguments {
    @Option(help: "Most bytes of input read (default 100 MiB).")
    var maxBodyBytes: Int?

    @Option(help: "Deepest nesting accepted (default 512).")
    var maxDepth: Int?

    @Option(help: "Longest string accepted, in bytes (default 32 MiB).")
    var maxStringBytes: Int?

    @Option(help: "Most form pairs or object members (default 10000).")
    var maxPairs: Int?

    @Option(help: "Most parts in a multipart body (default 1000).")
    var maxParts: Int?

    @Option(help: "Most header bytes in one multipart part (default 16 KiB).")
    var maxPartHeaderBytes: Int?

    @Option(help: "Most pixels in a decoded image (default 100000000).")
    var maxImagePixels: Int?

    @Option(help: "Most XML entity references expanded (default 10000).")
    var maxEntityExpansions: Int?

    func validate() throws {
        for (name, value) in [
            ("--max-body-bytes", maxBodyBytes), ("--max-depth", maxDepth),
            ("--max-string-bytes", maxStringBytes), ("--max-pairs", maxPairs),
            ("--max-parts", maxParts), ("--max-part-header-bytes", maxPartHeaderBytes),
            ("--max-image-pixels", maxImagePixels), ("--max-entity-expansions", maxEntityExpansions),
        ] {
            if let value, value < 0 { throw ValidationError("\(name) must not be negative") }
        }
    }

    var limits: Limits {
        var limits = Limits.default
        if let maxBodyBytes { limits.maxBodyBytes = maxBodyBytes }
        if let maxDepth { limits.maxDepth = maxDepth }
        if let maxStringBytes { limits.maxStringBytes = maxStringBytes }
        if let maxPairs { limits.maxPairs = maxPairs }
        if let maxParts { limits.maxParts = maxParts }
        if let maxPartHeaderBytes { limits.maxPartHeaderBytes = maxPartHeaderBytes }
        if let maxImagePixels { limits.maxImagePixels = maxImagePixels }
        if let maxEntityExpansions { limits.maxEntityExpansions = maxEntityExpansions }
        return limits
    }
}
