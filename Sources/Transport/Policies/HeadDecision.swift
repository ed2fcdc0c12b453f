// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Synchronization

/// What the session's policies make of one attempt's response head (final, a redirect or a
/// retry), decided once: by the sink as the head arrives on the engine thread (a streaming or
/// download sink must know before it hands bytes on), else by the step after the attempt, which
/// then reads the same verdict.
final class HeadDecision: Sendable {
    private let policy: AttemptPolicy
    /// The last head decided, and the verdict on it.
    private let decided = Mutex<(head: HTTPResponse, disposition: Session.Disposition?)?>(nil)

    init(policy: AttemptPolicy) {
        self.policy = policy
    }

    /// Whether `head` is the request's final response: not a redirect the policy follows, nor a
    /// status it retries.
    @Sendable func isFinal(_ head: HTTPResponse) -> Bool {
        disposition(of: head) == nil
    }

    /// `nil` when `head` is the final response; otherwise the redirect or the retry (a
    /// `Retry-After` date is read against the clock once, when the head is first decided).
    func disposition(of head: HTTPResponse) -> Session.Disposition? {
        decided.withLock { decided in
            if let decided, decided.head == head { return decided.disposition }
            let disposition = policy.disposition(of: head)
            decided = (head, disposition)
            return disposition
        }
    }
}
