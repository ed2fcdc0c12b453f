// SPDX-License-Identifier: Apache-2.0
/// Why a benchmark run stopped before timing anything it could not trust.
enum BenchmarkFailure: Error, CustomStringConvertible {
    /// A bad command line (or `--help`, with an empty message).
    case usage(String)
    /// A corpus file is missing or unreadable.
    case corpus(String)
    /// A correctness guard failed: a contender produced a wrong or incomplete result, so its
    /// time would mean nothing.
    case guardFailed(String)

    var description: String {
        switch self {
        case .usage(let message): message
        case .corpus(let message): "corpus: \(message)"
        case .guardFailed(let message): "correctness guard failed: \(message)"
        }
    }
}
