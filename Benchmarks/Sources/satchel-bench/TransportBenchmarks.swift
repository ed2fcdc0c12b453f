import Foundation

/// HTTP on loopback against a local nginx (`scripts/bench --only transport` starts it): a 100 MB
/// download and upload against the curl CLI, small keep-alive GETs of a JSON body, decoded,
/// against a libcurl multi loop in C, and a 1 MB JSON array decoded into models against the same
/// bytes handed to `JSONDecoder`, with FoundationNetworking's `URLSession` for reference.
///
/// The server's base URL comes from `SATCHEL_BENCH_SERVER`; it serves `big.bin` and
/// `small.json` and `array.json` (the files of `Corpus/transport/`) and answers `PUT /upload` with 204 after
/// reading and discarding the body. Downloads are written under `SATCHEL_BENCH_SCRATCH` (a
/// temporary folder by default). Every contender's result is checked before timing, and every
/// timed run checks its own status and sizes.
struct TransportBenchmarks {
    /// The server, with a trailing slash.
    let server: URL
    /// Where downloads go.
    let scratch: URL
    /// The inputs.
    let corpus: Corpus
    /// Times the contenders.
    let sampler: Sampler

    /// Small GETs per timed run.
    static let requestsPerRun = 2_000
    /// GETs of the 1 MB array per timed run.
    static let arrayRequestsPerRun = 10
    /// Requests in flight in the concurrent rows.
    static let concurrency = 32
    /// The big file's size.
    static let bigSize = 100_000_000

    /// Reads the server and scratch folder from the environment.
    ///
    /// - Throws: ``BenchmarkFailure/usage(_:)`` when `SATCHEL_BENCH_SERVER` is not set.
    init(corpus: Corpus, sampler: Sampler) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["SATCHEL_BENCH_SERVER"],
            let url = URL(string: text.hasSuffix("/") ? text : text + "/")
        else {
            throw BenchmarkFailure.usage(
                "the transport group needs SATCHEL_BENCH_SERVER (run scripts/bench --only transport)")
        }
        server = url
        let base =
            environment["SATCHEL_BENCH_SCRATCH"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
        scratch = base.appendingPathComponent("satchel-bench-transport-\(getpid())")
        self.corpus = corpus
        self.sampler = sampler
    }

    /// Guards, then times every transport measurement.
    func run() throws -> [TransportTable] {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let big = corpus.directory.appendingPathComponent("transport/big.bin").path
        let small = corpus.directory.appendingPathComponent("transport/small.json").path
        guard let size = try? FileManager.default.attributesOfItem(atPath: big)[.size] as? Int, size == Self.bigSize,
            let smallData = FileManager.default.contents(atPath: small)
        else {
            throw BenchmarkFailure.corpus(
                "missing transport/big.bin or transport/small.json (run scripts/bench --only transport)")
        }
        let satchel = try Self.makeSatchelClient(server: server)
        let foundation = URLSessionClient(server: server, maximumConnections: Self.concurrency)
        return [
            try download(satchel: satchel, foundation: foundation, original: big),
            try upload(satchel: satchel, foundation: foundation, file: big),
            try smallGets(satchel: satchel, foundation: foundation, expected: smallData, inFlight: 1),
            try smallGets(satchel: satchel, foundation: foundation, expected: smallData, inFlight: Self.concurrency),
            try arrayGets(satchel: satchel, foundation: foundation),
        ]
    }

    /// The 100 MB download: Satchel to a file against the curl CLI to `/dev/null` and to a file.
    private func download(
        satchel: (any TransportClient)?, foundation: URLSessionClient, original: String
    ) throws -> TransportTable {
        Progress.note("transport download")
        let satchel = satchel.flatMap { $0.canDownload ? $0 : nil }
        if satchel == nil { Progress.note("transport: this build has no Session.download; measuring the peers only") }
        let curl = CurlCommand(server: server)
        let satchelFile = scratch.appendingPathComponent("satchel.bin").path
        let curlFile = scratch.appendingPathComponent("curl.bin").path
        let foundationFile = scratch.appendingPathComponent("urlsession.bin").path
        let expected = try Data(contentsOf: URL(fileURLWithPath: original))
        func checked(_ path: String, _ who: String) throws {
            guard (try? Data(contentsOf: URL(fileURLWithPath: path))) == expected else {
                throw BenchmarkFailure.guardFailed("\(who)'s download of big.bin differs from the original")
            }
        }
        var contenders: [Sampler.Work] = [
            { try curl.download("big.bin", to: "/dev/null") },
            { try curl.download("big.bin", to: curlFile) },
            { try foundation.download("big.bin", to: foundationFile) },
        ]
        _ = try curl.download("big.bin", to: curlFile)
        try checked(curlFile, "curl")
        _ = try foundation.download("big.bin", to: foundationFile)
        try checked(foundationFile, "URLSession")
        if let satchel {
            _ = try satchel.download("big.bin", to: satchelFile)
            try checked(satchelFile, "Satchel")
            contenders.insert({ try satchel.download("big.bin", to: satchelFile) }, at: 0)
        }
        let samples = try sampler.measure(contenders)
        let satchelSamples = satchel == nil ? nil : samples[0]
        let peers = satchel == nil ? samples[...] : samples.dropFirst()
        var table = TransportTable(
            title: "Download of 100 MB to a file (HTTP/1.1, loopback nginx)",
            satchelCall: "session.download(\"big.bin\", to: path)", unit: "MB/s")
        let calls = [
            ("curl CLI", "curl -s -o /dev/null URL", 0.9), ("curl CLI", "curl -s -o FILE URL", 0.9),
            ("URLSession", "downloadTask(with:) (to its temporary file)", nil),
        ]
        for (call, peer) in zip(calls, peers) {
            table.rows.append(
                .init(
                    peerName: call.0, peerCall: call.1, amount: Self.bigSize,
                    satchel: satchelSamples, peer: peer, target: call.2))
        }
        return table
    }

    /// The 100 MB upload from a file: Satchel's PUT against `curl -T`.
    private func upload(
        satchel: (any TransportClient)?, foundation: URLSessionClient, file: String
    ) throws -> TransportTable {
        Progress.note("transport upload")
        let curl = CurlCommand(server: server)
        var contenders: [Sampler.Work] = [
            { try curl.upload(file: file, to: "upload") },
            { try foundation.upload(file: file, to: "upload") },
        ]
        if let satchel { contenders.insert({ try satchel.upload(file: file, to: "upload") }, at: 0) }
        for work in contenders { _ = try work() }  // each checks its status and size itself
        let samples = try sampler.measure(contenders)
        let satchelSamples = satchel == nil ? nil : samples[0]
        let peers = satchel == nil ? samples[...] : samples.dropFirst()
        var table = TransportTable(
            title: "Upload of 100 MB from a file, PUT (HTTP/1.1, loopback nginx reads and discards it, 204)",
            satchelCall: "session.upload(.file(path:contentType:), to: \"upload\", method: .put)", unit: "MB/s")
        let calls = [("curl CLI", "curl -s -T FILE URL", 0.9), ("URLSession", "uploadTask(with:fromFile:)", nil)]
        for (call, peer) in zip(calls, peers) {
            table.rows.append(
                .init(
                    peerName: call.0, peerCall: call.1, amount: Self.bigSize,
                    satchel: satchelSamples, peer: peer, target: call.2))
        }
        return table
    }

    /// GETs of `array.json` (about 1 MB) decoded into `[APIRecord]`, one at a time: Satchel's
    /// `decode` against the same session's bytes handed to `JSONDecoder`.
    private func arrayGets(satchel: (any TransportClient)?, foundation: URLSessionClient) throws -> TransportTable {
        Progress.note("transport 1 MB array into models")
        let name = "array.json"
        let file = corpus.directory.appendingPathComponent("transport/\(name)")
        guard let bytes = FileManager.default.contents(atPath: file.path) else {
            throw BenchmarkFailure.corpus("missing transport/array.json (run scripts/bench --only transport)")
        }
        let expected = try JSONDecoder().decode([APIRecord].self, from: bytes)
        let count = Self.arrayRequestsPerRun
        var contenders: [Sampler.Work] = [{ try foundation.getRecords(name, count: count) }]
        guard try foundation.getRecords(name, count: 1) == expected else {
            throw BenchmarkFailure.guardFailed("URLSession's [APIRecord] from array.json differs from the file's")
        }
        if let satchel = satchel as? SatchelClient {
            guard try satchel.getRecords(name, count: 1) == expected,
                try satchel.getRecordsThenJSONDecoder(name, count: 1) == expected
            else { throw BenchmarkFailure.guardFailed("Satchel's [APIRecord] from array.json differs from the file's") }
            contenders.insert(
                contentsOf: [
                    { try satchel.getRecords(name, count: count) },
                    { try satchel.getRecordsThenJSONDecoder(name, count: count) },
                ], at: 0)
        }
        let samples = try sampler.measure(contenders)
        let hasSatchel = satchel is SatchelClient
        var table = TransportTable(
            title: "GETs of a \(Format.size(bytes.count)) JSON array (\(expected.count) records) into `[Model]`, "
                + "1 in flight (\(count) requests per run)",
            satchelCall: "try await session.get(\"array.json\").decode([APIRecord].self)", unit: "req/s")
        let calls: [(String, String, Double?)] = [
            (
                "Satchel + JSONDecoder",
                "session.get(\"array.json\").body, then JSONDecoder().decode([APIRecord].self, from:)", 1.0
            ),
            ("URLSession", "dataTask + JSONDecoder, sequential", nil),
        ]
        let peers = hasSatchel ? samples.dropFirst() : samples[...]
        for (call, peer) in zip(hasSatchel ? calls[...] : calls.dropFirst(), peers) {
            table.rows.append(
                .init(
                    peerName: call.0, peerCall: call.1, amount: count,
                    satchel: hasSatchel ? samples[0] : nil, peer: peer, target: call.2))
        }
        return table
    }

    /// Small keep-alive GETs of `small.json`, decoded, with `inFlight` requests at once.
    private func smallGets(
        satchel: (any TransportClient)?, foundation: URLSessionClient, expected: Data,
        inFlight: Int
    ) throws -> TransportTable {
        Progress.note("transport small GETs, \(inFlight) in flight")
        let count = Self.requestsPerRun
        guard
            let loop = CurlMultiLoop(
                url: server.appendingPathComponent("small.json").absoluteString, inFlight: inFlight)
        else { throw BenchmarkFailure.guardFailed("cannot set up the libcurl multi loop") }
        let shape = TreeShape(foundation: try JSONSerialization.jsonObject(with: expected))
        var contenders: [Sampler.Work] = [
            { try loop.run(count: count, bodySize: expected.count) },
            { try foundation.getJSON("small.json", count: count, inFlight: inFlight) },
        ]
        guard try foundation.firstShape("small.json") == shape else {
            throw BenchmarkFailure.guardFailed("URLSession's decoded small.json differs from the file")
        }
        if let satchel {
            guard try satchel.firstShape("small.json") == shape else {
                throw BenchmarkFailure.guardFailed("Satchel's decoded small.json differs from the file")
            }
            contenders.insert({ try satchel.getJSON("small.json", count: count, inFlight: inFlight) }, at: 0)
        }
        let samples = try sampler.measure(contenders)
        let satchelSamples = satchel == nil ? nil : samples[0]
        let peers = satchel == nil ? samples[...] : samples.dropFirst()
        let mode = inFlight == 1 ? "sequential" : "\(inFlight) concurrent"
        var table = TransportTable(
            title: "Small keep-alive GETs of a \(expected.count)-byte JSON body, decoded, \(inFlight) in flight "
                + "(\(count) requests per run)",
            satchelCall: inFlight == 1
                ? "try await session.get(\"small.json\")" : "\(inFlight) tasks looping on session.get(\"small.json\")",
            unit: "req/s")
        let calls = [
            (
                "libcurl multi in C",
                "satchel_bench_curl_loop_run (\(inFlight) easy handles re-added, json-c strict parse)", 0.8
            ),
            ("URLSession", "dataTask + JSONSerialization, \(mode)", nil),
        ]
        for (call, peer) in zip(calls, peers) {
            table.rows.append(
                .init(
                    peerName: call.0, peerCall: call.1, amount: count,
                    satchel: satchelSamples, peer: peer, target: call.2))
        }
        return table
    }
}
