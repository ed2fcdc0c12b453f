// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import XMLCoder

/// A 1 GiB document read as a record stream in a process of its own, for its peak memory
/// (`satchel-bench --contender NAME --input small.json`): the child makes the document from the
/// record in `small.json` as it goes, 256 KiB at a time, feeds each chunk to the reader and
/// drops it, decodes every element into a model, and reports its peak resident set size
/// (`VmHWM`), that peak above the process's idle level (`VmRSS` before reading, with the
/// high-water mark reset: the benchmark binary alone, with every peer linked in, is about
/// 31 MB), the records it read and the seconds it took.
enum DocumentStreamContender: String, CaseIterable, Sendable {
    case json = "documents-json-1gib"
    case atom = "documents-atom-1gib"
    // One timed read each, for scripts/measure-documents (the second harness of the ratios): the
    // 100 MB page by the element reader and by the whole-document decoder, the 9.5 MB feed by the
    // element reader and by XMLCoder.
    case jsonElements = "documents-json-elements"
    case jsonWhole = "documents-json-whole"
    case atomElements = "documents-atom-elements"
    case atomXMLCoder = "documents-atom-xmlcoder"

    /// The contenders of the peak-memory table.
    static let memoryCases: [DocumentStreamContender] = [.json, .atom]

    /// The document's size.
    static let documentBytes = 1 << 30
    /// Child processes per contender; the largest peak counts.
    static let rounds = 3

    /// What is read, for the table.
    var name: String {
        switch self {
        case .json:
            "1 GiB `{\"data\":{\"items\":[…]}}` of small.json records → `APIRecord` (`JSONElementReader(pointer: \"/data/items\")`)"
        case .atom:
            "1 GiB Atom feed → `AtomEntry` (`XMLElementReader(path: \"/feed/entry\")`)"
        default: rawValue
        }
    }

    /// The child's side.
    func runChild(input path: String) throws -> String {
        let record = try Corpus.File(reading: path).bytes
        if let once = try timedOnce(record: record) { return once }
        guard let idle = PeakMemory.currentBytes(), PeakMemory.resetPeak()
        else { throw BenchmarkFailure.guardFailed("cannot read or reset this process's resident memory") }
        let started = ContinuousClock.now
        let count: Int
        switch self {
        case .json: count = try Self.readJSON(record: record)
        case .atom: count = try Self.readAtom()
        default: count = 0
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        guard let peak = PeakMemory.residentBytes(), count > 1_000_000 else {
            throw BenchmarkFailure.guardFailed("\(rawValue) read \(count) records, or its peak memory is unknown")
        }
        return "peak-rss-bytes: \(peak)\npeak-above-idle-bytes: \(peak - idle)\nrecords: \(count)\nseconds: \(seconds)"
    }

    /// For the single-read contenders: `seconds: S` of one read after a warm-up read, or `nil`
    /// for the memory contenders.
    private func timedOnce(record: [UInt8]) throws -> String? {
        let work: () throws -> Int
        switch self {
        case .json, .atom:
            return nil
        case .jsonElements, .jsonWhole:
            let page = DocumentStreamBenchmarks.jsonPage(from: record, bytes: 100_000_000)
            work =
                self == .jsonElements
                ? { try DocumentStreamBenchmarks.satchelElements(page) }
                : {
                    try DocumentStreamBenchmarks.satchelWhole(page)
                }
        case .atomElements, .atomXMLCoder:
            let feed = DocumentStreamBenchmarks.atomFeed(bytes: 9_500_000)
            work =
                self == .atomElements
                ? { try DocumentStreamBenchmarks.satchelEntries(feed, keeping: false).count }
                : {
                    try XMLCoder.XMLDecoder().decode(AtomFeed.self, from: Data(feed)).entry.count
                }
        }
        _ = try work()
        let started = ContinuousClock.now
        let count = try work()
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        return "seconds: \(seconds)\nresult: \(count)"
    }

    private static func readJSON(record: [UInt8]) throws -> Int {
        let reader = JSONElementReader(pointer: try JSONPointer("/data/items"))
        var chunk = Array(#"{"data":{"items":["#.utf8)
        chunk.reserveCapacity(DocumentStreamBenchmarks.chunkSize + 4096)
        var total = 0
        var count = 0
        var first = true
        DocumentStreamBenchmarks.forEachRecord(from: record) { text in
            if !first { chunk.append(UInt8(ascii: ",")) }
            first = false
            chunk += text
            guard chunk.count >= DocumentStreamBenchmarks.chunkSize else { return true }
            total += chunk.count
            do {
                try reader.feed(chunk, as: APIRecord.self) { _ in count += 1 }
            } catch {
                return false
            }
            chunk.removeAll(keepingCapacity: true)
            return total < documentBytes
        }
        chunk += Array(#"]},"next":"cursor-2"}"#.utf8)
        try reader.feed(chunk, as: APIRecord.self) { _ in count += 1 }
        try reader.finish(as: APIRecord.self) { _ in count += 1 }
        return reader.rest?["next"] == "cursor-2" ? count : 0
    }

    private static func readAtom() throws -> Int {
        let reader = try XMLElementReader(path: "/feed/entry")
        var chunk = Array(AtomEntry.feedHead.utf8)
        chunk.reserveCapacity(DocumentStreamBenchmarks.chunkSize + 4096)
        var total = 0
        var count = 0
        var index = 0
        while total < documentBytes {
            chunk += Array(AtomEntry.text(index).utf8)
            index += 1
            guard chunk.count >= DocumentStreamBenchmarks.chunkSize else { continue }
            total += chunk.count
            try reader.feed(chunk, as: AtomEntry.self) { _ in count += 1 }
            chunk.removeAll(keepingCapacity: true)
        }
        chunk += Array(AtomEntry.feedTail.utf8)
        try reader.feed(chunk, as: AtomEntry.self) { _ in count += 1 }
        try reader.finish(as: AtomEntry.self) { _ in count += 1 }
        return count == index ? count : 0
    }

    /// The parent's side: each contender's largest peak over ``rounds`` children, with its
    /// records and median seconds.
    static func measure(
        input path: String
    ) throws -> [(DocumentStreamContender, peak: Int, above: Int, records: Int, seconds: Double)] {
        try memoryCases.map { contender in
            var runs: [(peak: Int, above: Int, records: Int, seconds: Double)] = []
            for _ in 0..<rounds { runs.append(try contender.runProcess(input: path)) }
            let seconds = runs.map(\.seconds).sorted()[runs.count / 2]
            return (contender, runs.map(\.peak).max() ?? 0, runs.map(\.above).max() ?? 0, runs[0].records, seconds)
        }
    }

    private func runProcess(input path: String) throws -> (peak: Int, above: Int, records: Int, seconds: Double) {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--contender", rawValue, "--input", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard process.terminationStatus == 0, let peak = fields["peak-rss-bytes:"].flatMap({ Int($0) }),
            let above = fields["peak-above-idle-bytes:"].flatMap({ Int($0) }),
            let records = fields["records:"].flatMap({ Int($0) }),
            let seconds = fields["seconds:"].flatMap({ Double($0) })
        else { throw BenchmarkFailure.guardFailed("document contender \(rawValue) failed: \(text)") }
        return (peak, above, records, seconds)
    }

    /// The peak memory table and its summary lines (the target: ≤ 32 MB).
    static func report(
        _ results: [(DocumentStreamContender, peak: Int, above: Int, records: Int, seconds: Double)]
    ) -> (
        markdown: String, summary: [String]
    ) {
        var lines = [
            "### Peak memory of a 1 GiB document read as records",
            "",
            "Each in a process of its own, \(rounds) runs, the largest peak: above the process's idle level (the target's measure) and of the whole process (`VmHWM`; satchel-bench alone, with every peer linked in, idles at about 31 MB). The document is made as it is fed, 256 KiB at a time. The whole-document decoders would hold the 1 GiB body and every model.",
            "",
            "| document | records | MB/s (median) | peak above idle | peak RSS, whole process | target |",
            "|---|---:|---:|---:|---:|---|",
        ]
        var summary: [String] = []
        for (contender, peak, above, records, seconds) in results {
            let met = above <= 32_000_000
            let megabytes = Format.fixed(Double(above) / 1e6, digits: 1) + " MB"
            let whole = Format.fixed(Double(peak) / 1e6, digits: 1) + " MB"
            lines.append(
                "| \(contender.name) | \(records) | \(Format.fixed(Double(documentBytes) / 1e6 / seconds, digits: 1)) | \(megabytes) | \(whole) | ≤ 32 MB \(met ? "met" : "**missed**") |"
            )
            summary.append(
                "| Documents | \(contender.name) | peak RSS above idle | \(megabytes) | ≤ 32 MB | \(met ? "met" : "**missed**") |"
            )
        }
        return (lines.joined(separator: "\n"), summary)
    }
}
