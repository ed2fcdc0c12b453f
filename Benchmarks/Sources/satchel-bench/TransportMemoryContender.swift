// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The peak memory above idle of one GET of the 1 MB JSON array decoded into `[APIRecord]`,
/// measured per client in a fresh process (`satchel-bench --contender NAME --input array.json`,
/// the server from `SATCHEL_BENCH_SERVER`): so that no client inherits another's heap.
///
/// The child warms its client up with a small GET (`small.json`: the connection, the code paths,
/// the decoder's first allocations), reads its resident set size (`VmRSS`, the idle level),
/// resets the kernel's high-water mark (`5` into `/proc/self/clear_refs`), runs one GET and
/// decode of the array, and reports the high-water mark (`VmHWM`) above the idle level. (Warming
/// up with the array itself hid whatever a client keeps pooled from it: AHC's buffers measured
/// 0.2–3.5 MB from run to run that way.)
enum TransportMemoryContender: String, CaseIterable, Sendable {
    case satchel = "transport-memory-satchel"
    case ahc = "transport-memory-ahc"
    case foundation = "transport-memory-urlsession"

    /// Child processes per contender; the median counts.
    static let rounds = 3

    /// Who it is in the table.
    var name: String {
        switch self {
        case .satchel: "Satchel: session.get(p).decode([APIRecord].self)"
        case .ahc: "async-http-client: execute + body.collect(upTo:) + JSONDecoder"
        case .foundation: "URLSession: dataTask + JSONDecoder"
        }
    }

    /// The child's side: the peak above idle, in bytes, of one GET of `path`'s last component.
    func runChild(input path: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["SATCHEL_BENCH_SERVER"], let server = URL(string: text) else {
            throw BenchmarkFailure.usage("the transport memory contenders need SATCHEL_BENCH_SERVER")
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        let client: any TransportClient =
            switch self {
            case .satchel: try SatchelClient(server: server)
            case .ahc: AsyncHTTPClientClient(server: server)
            case .foundation: URLSessionClient(server: server, maximumConnections: 1)
            }
        _ = try client.firstRecord("small.json")
        guard let idle = PeakMemory.currentBytes(), PeakMemory.resetPeak()
        else { throw BenchmarkFailure.guardFailed("cannot read or reset this process's resident memory") }
        let records = try client.getArray(name, count: 1)
        guard let peak = PeakMemory.residentBytes(), !records.isEmpty else {
            throw BenchmarkFailure.guardFailed("cannot read this process's peak memory")
        }
        return "peak-above-idle-bytes: \(max(0, peak - idle))"
    }

    /// The parent's side: each contender's median peak above idle, in bytes, over ``rounds``
    /// child processes, alternating the order.
    static func measure(input path: String) throws -> [TransportMemoryContender: Int] {
        var peaks: [TransportMemoryContender: [Int]] = [:]
        for round in 0..<rounds {
            for contender in round.isMultiple(of: 2) ? allCases : allCases.reversed() {
                peaks[contender, default: []].append(try contender.runProcess(input: path))
            }
        }
        return peaks.mapValues { $0.sorted()[$0.count / 2] }
    }

    private func runProcess(input path: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--contender", rawValue, "--input", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("peak-above-idle-bytes: ") }),
            let bytes = Int(line.dropFirst("peak-above-idle-bytes: ".count))
        else { throw BenchmarkFailure.guardFailed("memory contender \(rawValue) failed: \(text)") }
        return bytes
    }
}

/// The peak memory table: each client's peak above idle while it decodes the 1 MB array, and the
/// issue's target (Satchel's no higher than async-http-client's).
struct TransportMemoryTable: Sendable {
    /// The median peak above idle of each contender, in bytes.
    let peaks: [TransportMemoryContender: Int]
    /// The body's size.
    let bodyBytes: Int

    /// Whether Satchel's peak is no higher than AHC's.
    var met: Bool { (peaks[.satchel] ?? .max) <= (peaks[.ahc] ?? 0) }

    private func megabytes(_ contender: TransportMemoryContender) -> String {
        peaks[contender].map { Format.fixed(Double($0) / 1e6, digits: 1) + " MB" } ?? "—"
    }

    /// The summary line for the Targets table.
    var summaryLine: String {
        "| Transport | Peak memory above idle, one GET of the \(Format.size(bodyBytes)) JSON array into `[Model]` "
            + "| vs async-http-client | \(megabytes(.satchel)) vs \(megabytes(.ahc)) | ≤ AHC's | \(met ? "met" : "**missed**") |"
    }

    /// The table as Markdown.
    var markdown: String {
        var lines = [
            "### Peak memory above idle: one GET of the \(Format.size(bodyBytes)) JSON array into `[Model]`",
            "",
            "Each client in a fresh process, warmed up by a GET of `small.json`; `VmHWM` after a GET and decode of "
                + "the array, minus `VmRSS` before it (the high-water mark reset through `/proc/self/clear_refs`); median of "
                + "\(TransportMemoryContender.rounds) processes each.",
            "",
            "| client | peak above idle |",
            "|---|---:|",
        ]
        for contender in TransportMemoryContender.allCases {
            lines.append("| \(contender.name) | \(megabytes(contender)) |")
        }
        lines.append("")
        lines.append("Target: Satchel's no higher than async-http-client's — \(met ? "met" : "**missed**").")
        return lines.joined(separator: "\n")
    }
}
