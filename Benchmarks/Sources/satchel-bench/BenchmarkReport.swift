/// Runs every benchmark and assembles the report.
enum BenchmarkReport {
    /// Runs the JSON parse, decode and write benchmarks and the form benchmarks, and returns
    /// the report as Markdown.
    ///
    /// - Throws: ``BenchmarkFailure`` when the corpus is missing or a correctness guard fails;
    ///   nothing is reported then, since times of wrong results mean nothing.
    static func run(options: BenchmarkOptions) throws -> String {
        let sampler = Sampler(iterations: options.iterations, targetSeconds: options.targetSeconds)
        if let contender = options.contender, let input = options.inputPath {
            return try IsolatedContender.runChild(contender: contender, input: input, sampler: sampler)
        }
        let machine = MachineInfo.current()
        let corpus = Corpus(path: options.corpusPath)

        var tables: [ComparisonTable] = []
        if options.runs("json") {
            tables += try JSONParseBenchmarks(corpus: corpus, sampler: sampler).run()
            tables += try JSONDecodeBenchmarks(corpus: corpus, sampler: sampler).run()
            tables += try JSONWriteBenchmarks(corpus: corpus, sampler: sampler).run()
        }
        if options.runs("form") {
            tables += try FormBenchmarks(corpus: corpus, sampler: sampler).run()
        }
        if options.runs("image") {
            tables += try ImageBenchmarks(corpus: corpus, sampler: sampler).run()
        }
        if options.runs("xml") {
            tables += try XMLBenchmarks(corpus: corpus, options: options).run()
        }
        if options.runs("plist") {
            tables += try PropertyListBenchmarks(corpus: corpus, sampler: sampler).run()
        }
        if options.runs("capi") {
            tables += try CABIBenchmarks(corpus: corpus, sampler: sampler).run()
        }
        var multipartBuild: MultipartBuildTable?
        if options.runs("multipart") {
            let multipart = try MultipartBenchmarks(corpus: corpus, sampler: sampler, options: options).run()
            multipartBuild = multipart.build
            tables.append(multipart.parse)
        }
        var transportTables: [TransportTable] = []
        if options.groups?.contains("transport") == true {
            transportTables = try TransportBenchmarks(corpus: corpus, sampler: sampler).run()
        }

        let runs =
            options.iterations.map { "\($0) timed runs per contender" }
            ?? "enough timed runs for ~\(Format.seconds(options.targetSeconds)) s per contender (at least 5)"
        var sections = [
            "## Satchel benchmarks",
            "",
            machine.markdown,
            "- method: each contender warmed up, then timed with ContinuousClock in interleaved rounds; "
                + "\(runs); the median run counts. MB/s uses 1 MB = 10^6 bytes. "
                + "Ratio = peer time ÷ Satchel time: above 1.00× Satchel is faster. "
                + "Runs column: Satchel/peer timed runs.",
            "- guards: before timing, every result is checked against the peer's "
                + "(same tree shape, same decoded models, output that reads back), and the run stops on a mismatch.",
        ]
        for table in tables {
            sections.append("")
            sections.append(table.markdown)
        }
        if let multipartBuild {
            sections.append("")
            sections.append(multipartBuild.markdown)
        }
        for table in transportTables {
            sections.append("")
            sections.append(table.markdown)
        }
        return sections.joined(separator: "\n")
    }
}
