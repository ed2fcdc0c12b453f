// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs one contender alone in a fresh process, so that no contender inherits the heap another
/// one left (for parsers that allocate a tree, the previous contender's free lists move the
/// result by tens of percent).
///
/// The parent re-executes `satchel-bench` with `--contender NAME --input FILE`; the child warms
/// the contender up, times it with ``Sampler`` and prints `durations-ns: N N …` and its peak
/// resident set size, `peak-rss-bytes: N` (``PeakMemory``). The parent runs every contender of an
/// input once per round, in forward order in even rounds and reversed in odd ones, pools each
/// contender's runs and keeps the largest peak as ``Samples/peakResidentBytes``: with one
/// contender per process, that peak is the contender's own.
enum IsolatedContender {
    /// The child's side: times the contender named `name` on the file at `path` and returns the
    /// report lines: its run times and its peak resident set size.
    static func runChild(contender name: String, input path: String, sampler: Sampler) throws -> String {
        if let memory = TransportMemoryContender(rawValue: name) { return try memory.runChild(input: path) }
        if let document = DocumentStreamContender(rawValue: name) { return try document.runChild(input: path) }
        let work: Sampler.Work
        if let contender = XMLContender(rawValue: name) {
            work = try contender.work(input: path)
        } else if let contender = MultipartBuildContender(rawValue: name) {
            work = try contender.work(input: path)
        } else if let contender = JSONContender(rawValue: name) {
            work = try contender.work(on: try Corpus.File(reading: path))
        } else if let contender = PropertyListContender(rawValue: name) {
            work = try contender.work(input: path)
        } else if let contender = RecordStreamContender(rawValue: name) {
            work = try contender.work(input: path)
        } else {
            let known =
                XMLContender.allCases.map(\.rawValue) + MultipartBuildContender.allCases.map(\.rawValue)
                + JSONContender.allCases.map(\.rawValue) + PropertyListContender.allCases.map(\.rawValue)
                + RecordStreamContender.allCases.map(\.rawValue)
            throw BenchmarkFailure.usage("unknown contender \(name) (known: \(known.joined(separator: ", ")))")
        }
        let samples = try sampler.measure([work])[0]
        let nanoseconds = samples.durations.map { String(Int64(($0.seconds * 1e9).rounded())) }
        return "durations-ns: " + nanoseconds.joined(separator: " ") + "\n"
            + "peak-rss-bytes: \(PeakMemory.residentBytes() ?? 0)"
    }

    /// The parent's side: times each of `contenders` on the file at `path` in `rounds` child
    /// processes each, alternating the order, and returns each one's pooled samples in the
    /// order given.
    static func measure<Contender: RawRepresentable<String>>(
        _ contenders: [Contender], input path: String, rounds: Int, options: BenchmarkOptions
    ) throws -> [Samples] {
        var pooled = contenders.map { _ in Samples(durations: [], peakResidentBytes: 0) }
        for round in 0..<rounds {
            let order = round.isMultiple(of: 2) ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                let run = try runProcess(contenders[index].rawValue, input: path, options: options)
                pooled[index] = Samples(
                    durations: pooled[index].durations + run.durations,
                    peakResidentBytes: max(pooled[index].peakResidentBytes ?? 0, run.peakResidentBytes ?? 0))
            }
        }
        return pooled
    }

    /// Runs one child and parses its durations and peak memory.
    private static func runProcess(
        _ contender: String, input path: String,
        options: BenchmarkOptions
    ) throws -> Samples {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executablePath())
        // --quick first, so that the --seconds after it wins.
        var arguments =
            ["--contender", contender, "--input", path] + (options.quick ? ["--quick"] : [])
            + ["--seconds", String(options.targetSeconds)]
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
            throw BenchmarkFailure.guardFailed(
                "contender \(contender) on \(path) failed (status \(process.terminationStatus))")
        }
        let values = line.dropFirst("durations-ns: ".count).split(separator: " ").compactMap { Int64($0) }
        guard !values.isEmpty else {
            throw BenchmarkFailure.guardFailed("contender \(contender) on \(path) reported no runs")
        }
        let peak = text.split(separator: "\n").first { $0.hasPrefix("peak-rss-bytes: ") }
            .flatMap { Int($0.dropFirst("peak-rss-bytes: ".count)) }
        return Samples(durations: values.map { Duration.nanoseconds($0) }, peakResidentBytes: peak)
    }

    /// This executable, for re-executing it.
    private static func executablePath() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
