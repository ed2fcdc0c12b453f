// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The command line of `satchel-bench`.
///
/// ```
/// satchel-bench [--iterations N] [--markdown FILE] [--corpus DIR] [--seconds S] [--only GROUPS]
///               [--quick] [--command TEXT]
/// ```
struct BenchmarkOptions: Sendable {
    /// Timed runs per contender and measurement; `nil` picks enough for ``targetSeconds``.
    var iterations: Int?
    /// Where to write the report as Markdown, besides standard output.
    var markdownPath: String?
    /// The corpus folder (with `json/` and `form/`); `Benchmarks/Corpus` by default.
    var corpusPath: String
    /// How long each contender runs per measurement when ``iterations`` is not given.
    var targetSeconds = 0.5
    /// The benchmark groups to run (`json`, `form`, …); `nil` runs every group.
    var groups: Set<String>?
    /// Short measurements for a smoke run: ~0.05 s per contender, at least 2 runs, one child
    /// process per isolated contender.
    var quick = false
    /// How the report was produced, as stated in it (`scripts/bench` passes its own command line).
    var command: String?
    /// Internal: the one contender a child process times (``IsolatedContender``).
    var contender: String?
    /// Internal: the input file of ``contender``.
    var inputPath: String?

    /// Whether the group named `name` runs.
    func runs(_ name: String) -> Bool {
        groups?.contains(name) ?? true
    }

    /// The usage text printed by `--help` and after a bad argument.
    static let usage = """
        usage: satchel-bench [--iterations N] [--markdown FILE] [--corpus DIR] [--seconds S] [--only GROUPS]
                             [--quick] [--command TEXT]

          --iterations N   timed runs per contender (default: enough for ~0.5 s, at least 5)
          --seconds S      target time per contender when --iterations is not given (default 0.5)
          --markdown FILE  also write the report to FILE as Markdown
          --corpus DIR     corpus folder holding json/ and form/ (default: Benchmarks/Corpus;
                           fill it with scripts/corpus json)
          --only GROUPS    comma-separated groups to run (json, form, image, xml, plist, multipart,
                           streams, capi, transport; default: all but transport; image needs
                           scripts/corpus image, xml scripts/corpus xml, plist
                           scripts/corpus plist, multipart scripts/corpus multipart,
                           capi scripts/corpus capi and libSatchelC.so (--product SatchelC);
                           scripts/bench makes them all); transport runs only when named, through
                           scripts/bench (it needs the nginx scripts/bench
                           starts, at SATCHEL_BENCH_SERVER)
          --quick          short measurements for a smoke run (~0.05 s per contender, at least 2 runs)
          --command TEXT   the command to state in the report (default: this command line)
          --contender NAME --input FILE
                           internal: time one contender (xml-satchel-document, …) on FILE alone
                           and print its run times in ns and its peak RSS (the xml group and
                           the multipart build run each contender so; json-satchel-value,
                           json-satchel-decode, …: scripts/callgrind json)
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``BenchmarkFailure/usage(_:)`` for an unknown option or a bad value, and for
    ///   `--help` (with an empty message).
    init(arguments: [String]) throws(BenchmarkFailure) {
        corpusPath = Self.defaultCorpusPath
        var remaining = arguments[...]
        func value(for option: String) throws(BenchmarkFailure) -> String {
            guard let next = remaining.popFirst() else { throw .usage("\(option) needs a value") }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--iterations":
                let text = try value(for: argument)
                guard let count = Int(text), count >= 1 else {
                    throw .usage("--iterations needs a positive integer, not \(text)")
                }
                iterations = count
            case "--seconds":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw .usage("--seconds needs a positive number, not \(text)")
                }
                targetSeconds = seconds
            case "--markdown":
                markdownPath = try value(for: argument)
            case "--corpus":
                corpusPath = try value(for: argument)
            case "--only":
                let names = try value(for: argument).split(separator: ",").map(String.init)
                guard !names.isEmpty else { throw .usage("--only needs at least one group") }
                groups = Set(names)
            case "--quick":
                quick = true
                targetSeconds = 0.05
            case "--command":
                command = try value(for: argument)
            case "--contender":
                contender = try value(for: argument)
            case "--input":
                inputPath = try value(for: argument)
            case "--help", "-h":
                throw .usage("")
            default:
                throw .usage("unknown argument \(argument)")
            }
        }
        if (contender == nil) != (inputPath == nil) { throw .usage("--contender and --input go together") }
        if command == nil { command = (["satchel-bench"] + arguments).joined(separator: " ") }
    }

    /// `Benchmarks/Corpus`, found from this source file's location so the runner works from any
    /// working directory.
    static var defaultCorpusPath: String {
        PackageLocation.benchmarksDirectory.appendingPathComponent("Corpus").path
    }
}
