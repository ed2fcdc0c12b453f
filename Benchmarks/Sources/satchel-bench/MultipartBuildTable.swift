// SPDX-License-Identifier: Apache-2.0
/// The multipart build benchmark's table: Satchel, the plain loop and multipart-kit uploading one
/// file, each with its throughput and peak resident set size.
struct MultipartBuildTable: Sendable {
    /// One contender's result.
    struct Row: Sendable {
        /// Who ran.
        let contender: MultipartBuildContender
        /// Its runs and peak memory.
        let samples: Samples
    }

    /// Issue 3's targets: Satchel's peak RSS under this many bytes…
    static let peakResidentTarget = 32_000_000
    /// …and at least this fraction of the plain loop's throughput.
    static let loopRatioTarget = 0.80

    /// The uploaded file's name.
    let filename: String
    /// Its size: what MB/s is computed over.
    let fileBytes: Int
    /// The rows, Satchel's first.
    var rows: [Row] = []

    /// Satchel's speed as a multiple of `row`'s: its time ÷ Satchel's.
    func ratio(_ row: Row) -> Double? {
        guard let satchel = rows.first(where: { $0.contender == .satchel }), satchel.samples.median.seconds > 0 else {
            return nil
        }
        return row.samples.median.seconds / satchel.samples.median.seconds
    }

    /// Whether Satchel met both targets (`nil` when a row is missing).
    var targetsMet: (speed: Bool, memory: Bool)? {
        guard let satchel = rows.first(where: { $0.contender == .satchel }),
            let loop = rows.first(where: { $0.contender == .readWriteLoop }), let speed = ratio(loop)
        else { return nil }
        return (speed >= Self.loopRatioTarget, (satchel.samples.peakResidentBytes ?? .max) < Self.peakResidentTarget)
    }

    /// The table as Markdown.
    var markdown: String {
        var lines = [
            "### Multipart build of a \(Format.size(fileBytes)) file: Satchel vs a read/write loop and multipart-kit (each contender in its own process)",
            "",
            "Each contender sends two text fields and `\(filename)` to `/dev/null`. MB/s over the file's size; "
                + "peak RSS is the child process's `VmHWM` (the read/write loop's shows the runner's own floor).",
            "",
            "| contender | what it runs | MB/s | Satchel/contender speed | peak RSS | above the loop's | target | runs |",
            "|---|---|---:|---:|---:|---:|---|---:|",
        ]
        let met = targetsMet
        let floor = rows.first { $0.contender == .readWriteLoop }?.samples.peakResidentBytes
        for row in rows {
            let peak = row.samples.peakResidentBytes
            let rss = peak.map { Format.fixed(Double($0) / 1e6, digits: 1) + " MB" } ?? "—"
            let above =
                peak.flatMap { peak in floor.map { Format.fixed(Double(peak - $0) / 1e6, digits: 1) + " MB" } } ?? "—"
            var target = "reference"
            switch row.contender {
            case .satchel: target = "peak RSS < 32 MB" + (met.map { $0.memory ? " met" : " **missed**" } ?? "")
            case .readWriteLoop: target = "≥ 0.80×" + (met.map { $0.speed ? " met" : " **missed**" } ?? "")
            case .multipartKit: break
            }
            let ratio = row.contender == .satchel ? "—" : ratio(row).map { Format.fixed($0, digits: 2) + "×" } ?? "—"
            lines.append(
                "| \(row.contender.displayName) | \(row.contender.call) | \(Format.fixed(row.samples.megabytesPerSecond(bytes: fileBytes), digits: 0)) "
                    + "| \(ratio) | \(rss) | \(above) | \(target) | \(row.samples.count) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension MultipartBuildContender {
    /// The name in the report.
    var displayName: String {
        switch self {
        case .satchel: "Satchel"
        case .readWriteLoop: "read/write loop"
        case .multipartKit: "multipart-kit 4.7.1"
        }
    }

    /// What it runs, for the report.
    var call: String {
        switch self {
        case .satchel: "`MultipartFormData` → `makeBodyStream().write(toFileDescriptor:)` (64 KiB buffer)"
        case .readWriteLoop: "`read`/`write` of the file, 64 KiB buffer"
        case .multipartKit:
            "file read into a `ByteBuffer`; `MultipartRequestSerializer().serialize(parts:boundary:into:)`; one `write`"
        }
    }
}
