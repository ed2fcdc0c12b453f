// SPDX-License-Identifier: Apache-2.0
import Foundation

/// HTTP on loopback against a local nginx (`scripts/bench --only transport` starts it): a 100 MB
/// download and upload against the curl CLI and async-http-client (AHC), small keep-alive GETs
/// of a JSON record into a `Codable` struct against AHC and a libcurl multi loop in C, and a 1 MB
/// JSON array into models against AHC and the same bytes handed to `JSONDecoder`, with
/// FoundationNetworking's `URLSession` for reference.
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

    /// The peak memory of the 1 MB array's decode, each client in its own process.
    func memory() throws -> TransportMemoryTable {
        Progress.note("transport peak memory of the 1 MB array")
        let path = corpus.directory.appendingPathComponent("transport/array.json").path
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        return TransportMemoryTable(peaks: try TransportMemoryContender.measure(input: path), bodyBytes: size)
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
        let clients = Clients(
            satchel: try SatchelClient(server: server), ahc: AsyncHTTPClientClient(server: server),
            foundation: URLSessionClient(server: server, maximumConnections: Self.concurrency))
        // The same downloads to the disk the machine runs on, where a flush waits for the disk.
        let disk = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-disk-\(getpid())")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: disk) }
        let unsynced = try SatchelClient(server: server, durability: .none)
        return [
            try download(clients, original: big),
            try diskDownload(clients, original: big, folder: disk, satchel: clients.satchel, durability: "synced"),
            try diskDownload(clients, original: big, folder: disk, satchel: unsynced, durability: "none"),
            try upload(clients, file: big),
            try smallGets(clients, expected: smallData, inFlight: 1),
            try smallGets(clients, expected: smallData, inFlight: Self.concurrency),
            try arrayGets(clients),
        ] + (try OpenAPITransportBenchmarks.run(server: server, expected: smallData, sampler: sampler))
    }

    /// The contenders every measurement runs.
    struct Clients {
        let satchel: SatchelClient
        let ahc: AsyncHTTPClientClient
        let foundation: URLSessionClient
    }

    /// A peer of one table: who, what it runs, the ratio asked for (`nil` for reference), the work.
    struct Peer {
        let name: String
        let call: String
        let target: Double?
        let work: Sampler.Work
    }

    /// Times `satchel` and every peer, interleaved, and makes the table.
    private func measure(
        _ title: String, satchelCall: String, unit: String, amount: Int, satchel: @escaping Sampler.Work,
        peers: [Peer]
    ) throws -> TransportTable {
        let samples = try sampler.measure([satchel] + peers.map(\.work))
        var table = TransportTable(title: title, satchelCall: satchelCall, unit: unit)
        for (peer, peerSamples) in zip(peers, samples.dropFirst()) {
            table.rows.append(
                .init(
                    peerName: peer.name, peerCall: peer.call, amount: amount, satchel: samples[0], peer: peerSamples,
                    target: peer.target))
        }
        return table
    }

    /// The 100 MB download: Satchel to a file (synced, then renamed into place) against the curl
    /// CLI to `/dev/null` and to a file, and AHC streaming to a file with the same `fsync` and
    /// `rename`.
    private func download(_ clients: Clients, original: String) throws -> TransportTable {
        Progress.note("transport download")
        let curl = CurlCommand(server: server)
        let files = ["satchel", "curl", "ahc", "urlsession"].map { scratch.appendingPathComponent("\($0).bin").path }
        let expected = try Data(contentsOf: URL(fileURLWithPath: original))
        let downloads: [(String, () throws -> Int)] = [
            ("Satchel", { try clients.satchel.download("big.bin", to: files[0]) }),
            ("curl", { try curl.download("big.bin", to: files[1]) }),
            ("AHC", { try clients.ahc.download("big.bin", to: files[2]) }),
            ("URLSession", { try clients.foundation.download("big.bin", to: files[3]) }),
        ]
        for (index, (who, download)) in downloads.enumerated() {
            _ = try download()
            guard (try? Data(contentsOf: URL(fileURLWithPath: files[index]))) == expected else {
                throw BenchmarkFailure.guardFailed("\(who)'s download of big.bin differs from the original")
            }
        }
        return try measure(
            "Download of 100 MB to a file in memory (tmpfs: \(scratch.deletingLastPathComponent().path); HTTP/1.1, loopback nginx)",
            satchelCall: "session.download(\"big.bin\", to: path) (fsync, then rename)", unit: "MB/s",
            amount: Self.bigSize, satchel: { try clients.satchel.download("big.bin", to: files[0]) },
            peers: [
                Peer(
                    name: "curl CLI", call: "curl -s -o /dev/null URL", target: 0.9,
                    work: { try curl.download("big.bin", to: "/dev/null") }),
                Peer(
                    name: "curl CLI", call: "curl -s -o FILE URL", target: 0.95,
                    work: { try curl.download("big.bin", to: files[1]) }),
                Peer(
                    name: "async-http-client", call: "execute, body streamed to a file, fsync, rename",
                    target: 1.0, work: { try clients.ahc.download("big.bin", to: files[2]) }),
                Peer(
                    name: "URLSession", call: "downloadTask(with:) (to its temporary file)", target: nil,
                    work: { try clients.foundation.download("big.bin", to: files[3]) }),
            ])
    }

    /// The 100 MB download to `folder` on the machine's disk: Satchel with `durability` against
    /// `curl -o` (which flushes nothing) and AHC with `fsync` and `rename` (the same guarantee as
    /// `.synced`).
    private func diskDownload(
        _ clients: Clients, original: String, folder: URL, satchel: SatchelClient, durability: String
    ) throws -> TransportTable {
        Progress.note("transport download to disk, durability \(durability)")
        let curl = CurlCommand(server: server)
        let files = ["satchel", "curl", "ahc"].map { folder.appendingPathComponent("\($0).bin").path }
        _ = try satchel.download("big.bin", to: files[0])
        guard
            (try? Data(contentsOf: URL(fileURLWithPath: files[0])))
                == (try? Data(contentsOf: URL(fileURLWithPath: original)))
        else { throw BenchmarkFailure.guardFailed("Satchel's download of big.bin to disk differs from the original") }
        let synced = durability == "synced"
        return try measure(
            "Download of 100 MB to a file on disk (\(folder.deletingLastPathComponent().path)), Satchel's durability "
                + "`.\(durability)` (HTTP/1.1, loopback nginx)",
            satchelCall: "session.download(\"big.bin\", to: path) with downloadDurability = .\(durability)",
            unit: "MB/s", amount: Self.bigSize, satchel: { try satchel.download("big.bin", to: files[0]) },
            peers: [
                Peer(
                    name: "curl CLI", call: "curl -s -o FILE URL (no flush)", target: synced ? nil : 0.95,
                    work: { try curl.download("big.bin", to: files[1]) }),
                Peer(
                    name: "async-http-client", call: "execute, body streamed to a file, fsync, rename",
                    target: synced ? 1.0 : nil, work: { try clients.ahc.download("big.bin", to: files[2]) }),
            ])
    }

    /// The 100 MB upload from a file: Satchel's PUT against `curl -T` and AHC streaming the file.
    private func upload(_ clients: Clients, file: String) throws -> TransportTable {
        Progress.note("transport upload")
        let curl = CurlCommand(server: server)
        let peers = [
            Peer(
                name: "curl CLI", call: "curl -s -T FILE URL", target: 0.9,
                work: { try curl.upload(file: file, to: "upload") }),
            Peer(
                name: "async-http-client", call: "execute, .stream of 1 MiB ByteBuffers read from the file",
                target: nil, work: { try clients.ahc.upload(file: file, to: "upload") }),
            Peer(
                name: "URLSession", call: "uploadTask(with:fromFile:)", target: nil,
                work: { try clients.foundation.upload(file: file, to: "upload") }),
        ]
        let satchel = { try clients.satchel.upload(file: file, to: "upload") }
        for work in [satchel] + peers.map(\.work) { _ = try work() }  // each checks its status and size
        return try measure(
            "Upload of 100 MB from a file, PUT (HTTP/1.1, loopback nginx reads and discards it, 204)",
            satchelCall: "session.upload(.file(path:contentType:), to: \"upload\", method: .put)", unit: "MB/s",
            amount: Self.bigSize, satchel: satchel, peers: peers)
    }

    /// Small keep-alive GETs of `small.json` decoded into an ``APIRecord``, `inFlight` at once;
    /// the C loop parses each body with json-c (a tree: C has no `Codable`).
    private func smallGets(_ clients: Clients, expected: Data, inFlight: Int) throws -> TransportTable {
        Progress.note("transport small GETs, \(inFlight) in flight")
        let count = Self.requestsPerRun
        guard
            let loop = CurlMultiLoop(
                url: server.appendingPathComponent("small.json").absoluteString, inFlight: inFlight)
        else { throw BenchmarkFailure.guardFailed("cannot set up the libcurl multi loop") }
        let record = try JSONDecoder().decode(APIRecord.self, from: expected)
        for (who, client) in [("Satchel", clients.satchel), ("AHC", clients.ahc), ("URLSession", clients.foundation)]
            as [(String, any TransportClient)]
        {
            guard try client.firstRecord("small.json") == record else {
                throw BenchmarkFailure.guardFailed("\(who)'s record from small.json differs from the file's")
            }
        }
        let mode = inFlight == 1 ? "sequential" : "\(inFlight) concurrent"
        return try measure(
            "Small keep-alive GETs of a \(expected.count)-byte JSON record into a `Codable` struct, "
                + "\(inFlight) in flight (\(count) requests per run)",
            satchelCall: inFlight == 1
                ? "try await session.get(\"small.json\").decode(APIRecord.self)"
                : "\(inFlight) tasks looping on session.get(\"small.json\").decode(APIRecord.self)",
            unit: "req/s", amount: count,
            satchel: { try clients.satchel.getRecords("small.json", count: count, inFlight: inFlight) },
            peers: [
                Peer(
                    name: "async-http-client", call: "execute + body.collect(upTo:) + JSONDecoder, \(mode)",
                    target: 1.25,
                    work: { try clients.ahc.getRecords("small.json", count: count, inFlight: inFlight) }),
                Peer(
                    name: "libcurl multi in C",
                    call: "satchel_bench_curl_loop_run (\(inFlight) easy handles re-added, json-c strict parse)",
                    target: 0.8, work: { try loop.run(count: count, bodySize: expected.count) }),
                Peer(
                    name: "URLSession", call: "dataTask + JSONDecoder, \(mode)", target: nil,
                    work: { try clients.foundation.getRecords("small.json", count: count, inFlight: inFlight) }),
            ])
    }

    /// GETs of `array.json` (about 1 MB) decoded into `[APIRecord]`, one at a time: Satchel's
    /// `decode` against AHC and against the same session's bytes handed to `JSONDecoder`.
    private func arrayGets(_ clients: Clients) throws -> TransportTable {
        Progress.note("transport 1 MB array into models")
        let name = "array.json"
        let file = corpus.directory.appendingPathComponent("transport/\(name)")
        guard let bytes = FileManager.default.contents(atPath: file.path) else {
            throw BenchmarkFailure.corpus("missing transport/array.json (run scripts/bench --only transport)")
        }
        let expected = try JSONDecoder().decode([APIRecord].self, from: bytes)
        guard try clients.satchel.getArray(name, count: 1) == expected,
            try clients.satchel.getArrayThenJSONDecoder(name, count: 1) == expected,
            try clients.ahc.getArray(name, count: 1) == expected,
            try clients.foundation.getArray(name, count: 1) == expected
        else { throw BenchmarkFailure.guardFailed("a client's [APIRecord] from array.json differs from the file's") }
        let count = Self.arrayRequestsPerRun
        return try measure(
            "GETs of a \(Format.size(bytes.count)) JSON array (\(expected.count) records) into `[Model]`, "
                + "1 in flight (\(count) requests per run)",
            satchelCall: "try await session.get(\"array.json\").decode([APIRecord].self)", unit: "req/s",
            amount: count, satchel: { try clients.satchel.getArray(name, count: count) },
            peers: [
                Peer(
                    name: "async-http-client", call: "execute + body.collect(upTo:) + JSONDecoder", target: 1.5,
                    work: { try clients.ahc.getArray(name, count: count) }),
                Peer(
                    name: "Satchel + JSONDecoder",
                    call: "session.get(\"array.json\").body, then JSONDecoder().decode([APIRecord].self, from:)",
                    target: 1.0, work: { try clients.satchel.getArrayThenJSONDecoder(name, count: count) }),
                Peer(
                    name: "URLSession", call: "dataTask + JSONDecoder, sequential", target: nil,
                    work: { try clients.foundation.getArray(name, count: count) }),
            ])
    }
}
