// SPDX-License-Identifier: Apache-2.0
/// Keeps one direction of a transfer under a rate (bytes per second) by telling how long to
/// pause before the next bytes: libcurl 7.88's own limit is checked only between reads of
/// everything the socket has, so a fast peer's small body passes it whole.
struct RateLimiter {
    /// Bytes per second.
    let rate: Int
    private var start: ContinuousClock.Instant?
    private var passed: Int64 = 0

    init(rate: Int) {
        self.rate = max(1, rate)
    }

    /// `nil` when `count` more bytes may pass now (they are counted), else how long to wait
    /// before they may. The first bytes always pass, and an eighth of a second's worth may run
    /// ahead of the average.
    mutating func delay(for count: Int, now: ContinuousClock.Instant = .now) -> Duration? {
        let start = self.start ?? now
        self.start = start
        let elapsed = now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let allowed = Double(rate) * (seconds + 0.125)
        let wanted = Double(passed + Int64(count))
        guard passed > 0, wanted > allowed else {
            passed += Int64(count)
            return nil
        }
        return .microseconds(Int64((wanted - allowed) / Double(rate) * 1_000_000) + 1)
    }
}
