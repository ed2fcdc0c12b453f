// SPDX-License-Identifier: Apache-2.0
/// One measured row: Satchel and a peer doing the same work on the same input.
struct Comparison: Sendable {
    /// The input's name (a corpus file).
    let input: String
    /// The bytes the throughput is computed over (stated per table).
    let bytes: Int
    /// Satchel's runs.
    let satchel: Samples
    /// The peer's runs.
    let peer: Samples

    /// Satchel's median throughput in MB/s.
    var satchelThroughput: Double { satchel.megabytesPerSecond(bytes: bytes) }

    /// The peer's median throughput in MB/s.
    var peerThroughput: Double { peer.megabytesPerSecond(bytes: bytes) }

    /// Satchel's speed as a multiple of the peer's: peer time ÷ Satchel time (above 1 means
    /// Satchel is faster).
    var speedRatio: Double {
        let satchelSeconds = satchel.median.seconds
        return satchelSeconds > 0 ? peer.median.seconds / satchelSeconds : .infinity
    }

    /// The lowest and highest per-round ratio (peer ÷ Satchel of the runs timed in the same
    /// interleaved round): the spread behind ``speedRatio``; `nil` with fewer than two rounds.
    var ratioRange: ClosedRange<Double>? {
        let ratios = zip(satchel.durations, peer.durations).compactMap { ours, theirs in
            ours.seconds > 0 ? theirs.seconds / ours.seconds : nil
        }
        guard ratios.count >= 2, let lowest = ratios.min(), let highest = ratios.max() else { return nil }
        return lowest...highest
    }
}
