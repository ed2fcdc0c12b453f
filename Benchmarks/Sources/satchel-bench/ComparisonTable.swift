// SPDX-License-Identifier: Apache-2.0
/// The rows of one pairing (for example "JSON parse to Value: Satchel vs JSONSerialization").
struct ComparisonTable: Sendable {
    /// What is measured.
    let title: String
    /// What Satchel runs.
    let satchelCall: String
    /// The peer's name, as a column header.
    let peerName: String
    /// What the peer runs.
    let peerCall: String
    /// What the size column counts.
    let sizeNote: String
    /// The measured rows.
    var rows: [Comparison] = []
    /// The least speed ratio (peer time ÷ Satchel time) an earlier issue asks for on every row;
    /// `nil` when the pairing is for reference.
    var target: Double? = nil

    /// Whether `row` meets ``target`` (`nil` without a target).
    func meetsTarget(_ row: Comparison) -> Bool? {
        target.map { row.speedRatio >= $0 }
    }

    /// The target column of `row`: `≥ 1.50× met`, `≥ 0.90× missed`, or `reference`.
    func targetText(_ row: Comparison) -> String {
        guard let target, let met = meetsTarget(row) else { return "reference" }
        return "≥ \(Format.fixed(target, digits: 2))× " + (met ? "met" : "**missed**")
    }

    /// The table as Markdown: a heading, what each side runs, and one row per input.
    var markdown: String {
        var lines = [
            "### \(title)",
            "",
            "Satchel: `\(satchelCall)` — \(peerName): `\(peerCall)`. Size: \(sizeNote).",
            "",
            "| file | size | Satchel MB/s | \(peerName) MB/s | Satchel/\(peerName) speed | target | runs |",
            "|---|---:|---:|---:|---:|---|---:|",
        ]
        for row in rows {
            lines.append(
                "| \(row.input) | \(Format.size(row.bytes)) | \(Format.fixed(row.satchelThroughput, digits: 1)) "
                    + "| \(Format.fixed(row.peerThroughput, digits: 1)) | \(Format.fixed(row.speedRatio, digits: 2))×"
                    + (row.ratioRange.map {
                        " (\(Format.fixed($0.lowerBound, digits: 2))–\(Format.fixed($0.upperBound, digits: 2)))"
                    } ?? "") + " "
                    + "| \(targetText(row)) | \(row.satchel.count)/\(row.peer.count) |")
        }
        return lines.joined(separator: "\n")
    }
}
