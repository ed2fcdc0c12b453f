// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// Multipart bodies: Satchel's streaming builder against a plain read/write loop and vapor's
/// multipart-kit `MultipartSerializer` on a 1 GiB upload (each in its own process, with its peak
/// resident set size), and Satchel's `MultipartReader` against multipart-kit's on a ~100 MB body
/// of a few big parts and on one of 10 000 small fields.
struct MultipartBenchmarks {
    /// The inputs (`scripts/corpus multipart`).
    let corpus: Corpus
    /// The timer, for the parse benchmark.
    let sampler: Sampler
    /// The command line, passed on to the build benchmark's child processes.
    let options: BenchmarkOptions

    /// Child processes per build contender (even, so each order runs as often).
    static let rounds = 2
    /// The chunk size both parsers are fed in, and the build contenders copy with.
    static let chunkSize = MultipartBuildContender.chunkSize
    /// The bodies the parse benchmark reads.
    static let parseInputs = ["big-parts.bin", "fields.bin"]
    /// Limits that admit the parse inputs (100 MB, 10 000 parts).
    static let parseLimits = Limits(maxBodyBytes: 1 << 30, maxParts: 20_000)
    /// Parts up to 1 GiB stay in memory (the default spills past 1 MiB to temporary files).
    static let parseOptions = MultipartReader.Options(memoryThreshold: 1 << 30)

    /// Guards, then times the build and the parse; returns the build table and the parse table.
    func run() throws -> (build: MultipartBuildTable, parse: ComparisonTable) {
        let upload = corpus.multipartPath("upload.bin")
        try Self.checkBuilders(upload: upload)
        Progress.note("multipart build upload.bin (each contender in its own process)")
        let samples = try IsolatedContender.measure(
            MultipartBuildContender.allCases, input: upload, rounds: options.quick ? 1 : Self.rounds, options: options)
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: upload)[.size] as? Int) ?? 0
        var build = MultipartBuildTable(filename: "upload.bin", fileBytes: fileBytes)
        for (contender, samples) in zip(MultipartBuildContender.allCases, samples) {
            build.rows.append(.init(contender: contender, samples: samples))
        }

        var parse = ComparisonTable(
            title: "Multipart parse: Satchel vs multipart-kit",
            satchelCall: "MultipartReader(boundary:…).feed(chunk) per 64 KiB chunk; finish() (parts kept in memory)",
            peerName: "multipart-kit",
            peerCall:
                "MultipartReader(boundary:).execute(chunk) per 64 KiB ByteBuffer, collecting headers and body as FormDataDecoder does",
            sizeNote: "the body")
        let manifest = try MultipartManifest(path: corpus.multipartPath("manifest.json"))
        for name in Self.parseInputs {
            let file = try corpus.multipart(name)
            guard let expected = manifest.bodies[name] else {
                throw BenchmarkFailure.corpus("manifest.json does not describe \(name)")
            }
            let bytes = file.bytes
            let chunks = MultipartKitPeer.chunks(of: bytes, size: Self.chunkSize)
            try Self.checkParsers(
                file: file, kitParts: try MultipartKitPeer.parse(chunks: chunks, boundary: expected.boundary),
                expected: expected)
            Progress.note("multipart parse \(name)")
            let boundary = expected.boundary
            let samples = try sampler.measure([
                { try Self.satchelParse(bytes, boundary: boundary) },
                { try MultipartKitPeer.parse(chunks: chunks, boundary: boundary) },
            ])
            parse.rows.append(Comparison(input: name, bytes: bytes.count, satchel: samples[0], peer: samples[1]))
        }
        return (build, parse)
    }

    /// Satchel's parse of `bytes`, fed in ``chunkSize`` chunks.
    static func satchelParse(_ bytes: [UInt8], boundary: String) throws -> [MultipartReader.Part] {
        let parser = try MultipartReader(boundary: boundary, options: parseOptions, limits: parseLimits)
        var parts: [MultipartReader.Part] = []
        try bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(start + chunkSize, raw.count)
                parts += try parser.feed(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
        }
        try parser.finish()
        return parts
    }
}
