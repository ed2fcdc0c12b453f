// SPDX-License-Identifier: Apache-2.0
/// The transport benchmark's rows: Satchel against several peers, each row with its own peer,
/// unit (MB/s or requests/s) and target ratio.
struct TransportTable: Sendable {
    /// One measured pairing.
    struct Row: Sendable {
        /// The peer's name.
        let peerName: String
        /// What the peer runs.
        let peerCall: String
        /// How much one timed run moves: bytes for MB/s rows, requests for requests/s rows.
        let amount: Int
        /// Satchel's runs; `nil` when the Satchel contender was not built (no Session API yet).
        let satchel: Samples?
        /// The peer's runs.
        let peer: Samples
        /// The least Satchel/peer ratio the issue asks for; `nil` for reference rows.
        let target: Double?

        /// Satchel's speed as a multiple of the peer's: peer time ÷ Satchel time.
        var ratio: Double? {
            guard let satchel, satchel.median.seconds > 0 else { return nil }
            return peer.median.seconds / satchel.median.seconds
        }
    }

    /// What is measured.
    let title: String
    /// What Satchel runs.
    let satchelCall: String
    /// `MB/s` (amount in bytes) or `req/s` (amount in requests).
    let unit: String
    /// The measured rows.
    var rows: [Row] = []

    /// The rate of `samples`' median run in ``unit``.
    func rate(_ samples: Samples, amount: Int) -> Double {
        unit == "MB/s" ? samples.megabytesPerSecond(bytes: amount) : Double(amount) / samples.median.seconds
    }

    /// The processor-time column's heading: per request, or per run for the MB/s tables.
    private var cpuHeading: String {
        unit == "MB/s" ? "CPU per run, Satchel / peer (ms)" : "CPU per request, Satchel / peer (µs)"
    }

    /// The median run's processor time (this process and its children; not the server's), per
    /// request or per run.
    private func cpu(_ samples: Samples?, amount: Int) -> String {
        guard let cpu = samples?.medianCPU else { return "—" }
        return unit == "MB/s"
            ? Format.fixed(cpu.seconds * 1e3, digits: 0) : Format.fixed(cpu.seconds * 1e6 / Double(amount), digits: 0)
    }

    /// The table as Markdown: a heading, Satchel's call, and one row per peer.
    var markdown: String {
        var lines = [
            "### \(title)",
            "",
            "Satchel: `\(satchelCall)`.",
            "",
            "| peer | peer call | Satchel \(unit) | peer \(unit) | Satchel/peer | target | runs | \(cpuHeading) |",
            "|---|---|---:|---:|---:|---|---:|---:|",
        ]
        for row in rows {
            let satchelRate = row.satchel.map { Format.fixed(rate($0, amount: row.amount), digits: 0) } ?? "—"
            let ratio = row.ratio.map { Format.fixed($0, digits: 2) + "×" } ?? "—"
            var target = "reference"
            if let wanted = row.target {
                let verdict = row.ratio.map { $0 >= wanted ? " met" : " **missed**" } ?? ""
                target = "≥ \(Format.fixed(wanted, digits: 2))×\(verdict)"
            }
            lines.append(
                "| \(row.peerName) | `\(row.peerCall)` | \(satchelRate) | \(Format.fixed(rate(row.peer, amount: row.amount), digits: 0)) "
                    + "| \(ratio) | \(target) | \(row.satchel?.count ?? 0)/\(row.peer.count) "
                    + "| \(cpu(row.satchel, amount: row.amount)) / \(cpu(row.peer, amount: row.amount)) |")
        }
        return lines.joined(separator: "\n")
    }
}
