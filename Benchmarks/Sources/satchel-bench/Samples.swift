// SPDX-License-Identifier: Apache-2.0
/// The timed runs of one contender in one measurement.
struct Samples: Sendable {
    /// Every run's duration, in the order they ran.
    let durations: [Duration]
    /// The peak resident set size of the process the runs were timed in, when the contender ran
    /// alone in one (``IsolatedContender``); `nil` otherwise.
    var peakResidentBytes: Int? = nil
    /// The processor time (user and system, this process and its children) of each run, when
    /// ``Sampler`` measured it.
    var cpuTimes: [Duration] = []

    /// The median run's processor time; `nil` when it was not measured.
    var medianCPU: Duration? {
        guard !cpuTimes.isEmpty else { return nil }
        return cpuTimes.sorted()[cpuTimes.count / 2]
    }

    /// The median run (the mean of the middle two for an even count).
    var median: Duration {
        let sorted = durations.sorted()
        guard !sorted.isEmpty else { return .zero }
        let middle = sorted.count / 2
        if sorted.count.isMultiple(of: 2) {
            return (sorted[middle - 1] + sorted[middle]) / 2
        }
        return sorted[middle]
    }

    /// How many timed runs there were.
    var count: Int { durations.count }

    /// Throughput of the median run over `bytes` bytes, in MB/s (1 MB = 10^6 bytes).
    func megabytesPerSecond(bytes: Int) -> Double {
        let seconds = median.seconds
        return seconds > 0 ? Double(bytes) / 1e6 / seconds : .infinity
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
