// SPDX-License-Identifier: Apache-2.0
/// Runs every benchmark and assembles the report.
enum BenchmarkReport {
    /// The groups in report order, as `--only` names them, with their headings.
    static let groups = [
        ("json", "JSON"), ("form", "Form"), ("image", "Images"), ("xml", "XML"), ("plist", "Property lists"),
        ("multipart", "Multipart"), ("streams", "Record streams"),
        ("documents", "Documents as record streams"), ("capi", "C ABI"), ("transport", "Transport"),
    ]

    /// Runs the selected groups and returns the report as Markdown: the machine, the method, a
    /// summary of every target, then each group's tables.
    ///
    /// - Throws: ``BenchmarkFailure`` when the corpus is missing or a correctness guard fails;
    ///   nothing is reported then, since times of wrong results mean nothing.
    static func run(options: BenchmarkOptions) throws -> String {
        var sampler = Sampler(iterations: options.iterations, targetSeconds: options.targetSeconds)
        if options.quick { sampler.minimumIterations = 2 }
        if let contender = options.contender, let input = options.inputPath {
            return try IsolatedContender.runChild(contender: contender, input: input, sampler: sampler)
        }
        let machine = MachineInfo.current()
        let corpus = Corpus(path: options.corpusPath)

        var summary = TargetSummary()
        var groupSections: [String] = []
        for (name, heading) in groups {
            // transport needs a server (scripts/bench starts it): only when named.
            guard name == "transport" ? options.groups?.contains(name) == true : options.runs(name) else { continue }
            var tables: [ComparisonTable] = []
            var extra: [String] = []
            switch name {
            case "json":
                tables += try JSONParseBenchmarks(corpus: corpus, sampler: sampler).run()
                tables += try JSONDecodeBenchmarks(corpus: corpus, sampler: sampler).run()
                tables += try JSONSmallDocumentBenchmarks(sampler: sampler).run()
                tables += try JSONWriteBenchmarks(corpus: corpus, sampler: sampler).run()
            case "form":
                tables += try FormBenchmarks(corpus: corpus, sampler: sampler).run()
            case "image":
                tables += try ImageBenchmarks(corpus: corpus, sampler: sampler).run()
            case "xml":
                tables += try XMLBenchmarks(corpus: corpus, options: options).run()
                tables += try XMLModelBenchmarks(corpus: corpus, sampler: sampler).run()
            case "plist":
                tables += try PropertyListBenchmarks(corpus: corpus, sampler: sampler).run()
                tables += try PropertyListDecodeBenchmarks(corpus: corpus, sampler: sampler).run()
            case "multipart":
                let multipart = try MultipartBenchmarks(corpus: corpus, sampler: sampler, options: options).run()
                summary.add(multipart.build)
                extra.append(multipart.build.markdown)
                tables.append(multipart.parse)
            case "streams":
                tables += try RecordStreamBenchmarks(corpus: corpus, sampler: sampler).run()
            case "documents":
                tables += try DocumentStreamBenchmarks(corpus: corpus, sampler: sampler, options: options).run()
                let memory = DocumentStreamContender.report(
                    try DocumentStreamContender.measure(
                        input: corpus.directory.appendingPathComponent("transport/small.json").path))
                extra.append(memory.markdown)
                memory.summary.forEach { summary.add(line: $0) }
            case "capi":
                tables += try CABIBenchmarks(corpus: corpus, sampler: sampler).run()
            case "transport":
                let benchmarks = try TransportBenchmarks(corpus: corpus, sampler: sampler)
                let transport = try benchmarks.run()
                transport.forEach { summary.add($0, group: heading) }
                extra += transport.map(\.markdown)
                let memory = try benchmarks.memory()
                summary.add(line: memory.summaryLine)
                extra.append(memory.markdown)
            default:
                continue
            }
            tables.forEach { summary.add($0, group: heading) }
            groupSections.append((["## \(heading)"] + extra + tables.map(\.markdown)).joined(separator: "\n\n"))
        }

        let runs =
            options.iterations.map { "\($0) timed runs per contender" }
            ?? "enough timed runs for ~\(Format.seconds(options.targetSeconds)) s per contender "
            + "(at least \(sampler.minimumIterations))"
        let sections =
            [
                "# Satchel benchmarks",
                machine.markdown(command: options.command),
                "- method: each contender warmed up, then timed with ContinuousClock in interleaved rounds; "
                    + "\(runs); the median run counts. MB/s uses 1 MB = 10^6 bytes. "
                    + "Speed ratio = peer time ÷ Satchel time: above 1.00× Satchel is faster; in brackets, the lowest and highest ratio of the runs timed in the same round. "
                    + "Runs column: Satchel/peer timed runs."
                    + (options.quick
                        ? " **Quick run (`--quick`): short measurements, for a smoke test, not for quoting.**" : ""),
                "- guards: before timing, every result is checked against the peer's "
                    + "(same tree shape, same decoded models, output that reads back), and the run stops on a mismatch.",
                summary.markdown,
            ] + groupSections
        return sections.joined(separator: "\n\n")
    }
}
