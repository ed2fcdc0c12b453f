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

    /// The table as Markdown: a heading, what each side runs, and one row per input.
    var markdown: String {
        var lines = [
            "### \(title)",
            "",
            "Satchel: `\(satchelCall)` — \(peerName): `\(peerCall)`. Size: \(sizeNote).",
            "",
            "| file | size | Satchel MB/s | \(peerName) MB/s | ratio | runs |",
            "|---|---:|---:|---:|---|---:|",
        ]
        for row in rows {
            let ratio = Format.fixed(row.speedRatio, digits: 2)
            lines.append(
                "| \(row.input) | \(Format.size(row.bytes)) | \(Format.fixed(row.satchelThroughput, digits: 1)) "
                    + "| \(Format.fixed(row.peerThroughput, digits: 1)) "
                    + "| Satchel is \(ratio)× \(Format.possessive(peerName)) speed | \(row.satchel.count)/\(row.peer.count) |")
        }
        return lines.joined(separator: "\n")
    }
}
