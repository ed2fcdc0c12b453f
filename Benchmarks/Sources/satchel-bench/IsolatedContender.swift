import Foundation

/// Runs one contender alone in a fresh process, so that no contender inherits the heap another
/// one left (for parsers that allocate a tree, the previous contender's free lists move the
/// result by tens of percent).
///
/// The parent re-executes `satchel-bench` with `--contender NAME --input FILE`; the child warms
/// the contender up, times it with ``Sampler`` and prints one line, `durations-ns: N N …`. The
/// parent runs every contender of an input once per round, in forward order in even rounds and
/// reversed in odd ones, and pools each contender's runs.
enum IsolatedContender {
    /// The child's side: times `contender` on the file at `path` and returns the report line.
    static func runChild(contender name: String, input path: String, sampler: Sampler) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchmarkFailure.corpus("cannot read \(path)")
        }
        let file = Corpus.File(name: URL(fileURLWithPath: path).lastPathComponent, bytes: [UInt8](data), data: data)
        let work: Sampler.Work
        if let contender = XMLContender(rawValue: name) {
            work = contender.work(on: file)
        } else if let contender = JSONContender(rawValue: name) {
            work = try contender.work(on: file)
        } else {
            let known = (XMLContender.allCases.map(\.rawValue) + JSONContender.allCases.map(\.rawValue))
                .joined(separator: ", ")
            throw BenchmarkFailure.usage("unknown contender \(name) (known: \(known))")
        }
        let samples = try sampler.measure([work])[0]
        let nanoseconds = samples.durations.map { String(Int64(($0.seconds * 1e9).rounded())) }
        return "durations-ns: " + nanoseconds.joined(separator: " ")
    }

    /// The parent's side: times each of `contenders` on the file at `path` in `rounds` child
    /// processes each, alternating the order, and returns each one's pooled samples in the
    /// order given.
    static func measure(_ contenders: [XMLContender], input path: String, rounds: Int,
                        options: BenchmarkOptions) throws -> [Samples] {
        var durations = contenders.map { _ in [Duration]() }
        for round in 0..<rounds {
            let order = round.isMultiple(of: 2) ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                durations[index] += try runProcess(contenders[index], input: path, options: options)
            }
        }
        return durations.map { Samples(durations: $0) }
    }

    /// Runs one child and parses its durations.
    private static func runProcess(_ contender: XMLContender, input path: String,
                                   options: BenchmarkOptions) throws -> [Duration] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        var arguments = ["--contender", contender.rawValue, "--input", path,
                         "--seconds", String(options.targetSeconds)]
        if let iterations = options.iterations { arguments += ["--iterations", String(iterations)] }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: bytes, as: UTF8.self)
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("durations-ns: ") })
        else {
            throw BenchmarkFailure.guardFailed("contender \(contender.rawValue) on \(path) failed (status \(process.terminationStatus))")
        }
        let values = line.dropFirst("durations-ns: ".count).split(separator: " ").compactMap { Int64($0) }
        guard !values.isEmpty else {
            throw BenchmarkFailure.guardFailed("contender \(contender.rawValue) on \(path) reported no runs")
        }
        return values.map { Duration.nanoseconds($0) }
    }

    /// This executable, for re-executing it.
    private static func executablePath() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
