// SPDX-License-Identifier: Apache-2.0
import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every suite that starts processes, servers or transfers: a guard that
    /// fails a hung test long before CI's 90-minute limit, never a measure of speed.
    ///
    /// swift-testing starts a test's clock when its runner reaches the test, not when the test's
    /// body gets a thread. Under `swift test --parallel` on a two-core machine the bodies that
    /// wait for a child process hold the cooperative threads, so a one-second test can wait in
    /// the queue for most of the run before it starts: the Tools tests under AddressSanitizer take
    /// 130–140 s, and a CI run failed four one-second tests on a one-minute limit that way. The
    /// limit therefore exceeds the longest whole run of any test command, with room for a slower
    /// machine. Speed is shown by `scripts/bench`, never by a limit.
    ///
    /// ```swift
    /// @Suite(.hangGuard)
    /// struct RequestUnixSocketTests { … }
    /// ```
    public static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
