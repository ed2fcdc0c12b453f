// SPDX-License-Identifier: Apache-2.0
/// Every target of the earlier issues that the run measured, with its verdict: the table at the
/// top of the report.
struct TargetSummary: Sendable {
    private var lines: [String] = []

    /// Adds a row per input of `table`, when the table has a target.
    mutating func add(_ table: ComparisonTable, group: String) {
        guard let target = table.target else { return }
        for row in table.rows {
            let met = row.speedRatio >= target
            lines.append(
                "| \(group) | \(table.title) | \(row.input) | \(Format.fixed(row.speedRatio, digits: 2))× "
                    + "| ≥ \(Format.fixed(target, digits: 2))× | \(Self.verdict(met)) |")
        }
    }

    /// Adds a row written elsewhere (a target that is not a speed ratio).
    mutating func add(line: String) {
        lines.append(line)
    }

    /// Adds the transport rows that have a target.
    mutating func add(_ table: TransportTable, group: String) {
        for row in table.rows {
            guard let target = row.target else { continue }
            let ratio = row.ratio.map { Format.fixed($0, digits: 2) + "×" } ?? "—"
            lines.append(
                "| \(group) | \(table.title) | vs \(row.peerName) (`\(row.peerCall)`) | \(ratio) | ≥ \(Format.fixed(target, digits: 2))× "
                    + "| \(row.ratio.map { Self.verdict($0 >= target) } ?? "not measured") |")
        }
    }

    /// Adds the multipart build's two targets.
    mutating func add(_ table: MultipartBuildTable) {
        let satchel = table.rows.first { $0.contender == .satchel }
        let loop = table.rows.first { $0.contender == .readWriteLoop }
        let met = table.targetsMet
        let title = "Multipart build of \(table.filename)"
        let ratio = loop.flatMap(table.ratio).map { Format.fixed($0, digits: 2) + "×" } ?? "—"
        let peak = satchel?.samples.peakResidentBytes.map { Format.fixed(Double($0) / 1e6, digits: 1) + " MB" } ?? "—"
        lines.append(
            "| Multipart | \(title) | speed vs the read/write loop | \(ratio) | ≥ 0.80× | \(met.map { Self.verdict($0.speed) } ?? "—") |"
        )
        lines.append(
            "| Multipart | \(title) | Satchel's peak RSS | \(peak) | < 32 MB | \(met.map { Self.verdict($0.memory) } ?? "—") |"
        )
    }

    /// The summary as Markdown (a note when no measured group has a target).
    var markdown: String {
        guard !lines.isEmpty else { return "## Targets\n\nNo group with a target ran." }
        let met = lines.filter { $0.hasSuffix("| met |") }.count
        return
            ([
                "## Targets", "", "\(met) of \(lines.count) met.", "",
                "| group | measurement | input | Satchel/peer | target | result |",
                "|---|---|---|---:|---|---|",
            ] + lines).joined(separator: "\n")
    }

    private static func verdict(_ met: Bool) -> String {
        met ? "met" : "**missed**"
    }
}
