// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Times contenders side by side: warms each up, then runs them in interleaved rounds (A, B, A,
/// B, …) so drift in the machine's speed touches every contender alike, and reports each one's
/// median.
struct Sampler: Sendable {
    /// Timed runs per contender; `nil` picks enough runs for ``targetSeconds``.
    var iterations: Int?
    /// Time each contender should run for when ``iterations`` is `nil`.
    var targetSeconds: Double
    /// The fewest timed runs per contender.
    var minimumIterations = 5
    /// The most timed runs per contender (for inputs that take microseconds).
    var maximumIterations = 100_000

    /// A piece of work to time. It returns its result so the result is consumed; the result is
    /// released inside the timed region, so freeing it is timed too, for every contender alike
    /// (as json-c's baseline frees its tree before it returns).
    typealias Work = () throws -> Any

    /// Times each of `contenders` and returns their samples, in the same order.
    func measure(_ contenders: [Work]) throws -> [Samples] {
        // Warm-up: untimed runs of each contender; the last one also sizes the run count.
        let clock = ContinuousClock()
        var counts: [Int] = []
        for work in contenders {
            var elapsed = Duration.zero
            var warmUps = 0
            // At least two warm-up runs, and at least ~50 ms worth for tiny inputs.
            repeat {
                let start = clock.now
                blackHole(try work())
                elapsed = clock.now - start
                warmUps += 1
            } while warmUps < 2 || (elapsed * warmUps < .milliseconds(50) && warmUps < 1_000)
            counts.append(iterations ?? runCount(for: elapsed))
        }

        var durations = contenders.map { _ in [Duration]() }
        var cpuTimes = contenders.map { _ in [Duration]() }
        let rounds = counts.max() ?? 0
        for round in 0..<rounds {
            for (index, work) in contenders.enumerated() where round < counts[index] {
                let cpuStart = Self.processorTime()
                let start = clock.now
                blackHole(try work())
                let end = clock.now
                durations[index].append(end - start)
                cpuTimes[index].append(Self.processorTime() - cpuStart)
            }
        }
        return zip(durations, cpuTimes).map { Samples(durations: $0, cpuTimes: $1) }
    }

    /// The processor time (user and system) this process and its waited-for children have used:
    /// every thread of an in-process client, and the curl command run as a child.
    static func processorTime() -> Duration {
        var total = Duration.zero
        for who in [RUSAGE_SELF, RUSAGE_CHILDREN] {
            var usage = rusage()
            getrusage(who.rawValue, &usage)
            for time in [usage.ru_utime, usage.ru_stime] {
                total += .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
            }
        }
        return total
    }

    private func runCount(for oneRun: Duration) -> Int {
        let seconds = max(oneRun.seconds, 1e-9)
        let wanted = Int((targetSeconds / seconds).rounded(.up))
        return min(max(wanted, minimumIterations), maximumIterations)
    }
}

/// Keeps `value` alive until here, so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole(_ value: Any) {
    withExtendedLifetime(value) {}
}
