// SPDX-License-Identifier: Apache-2.0
extension NetworkReachability {
    /// The statuses, as an async sequence: the current status first, then each change (never
    /// the same status twice in a row). Each access makes a new, independent subscription.
    ///
    /// The sequence ends when the monitor is released; it survives ``stop()`` (which reports
    /// ``ReachabilityStatus/unknown``) and a later ``start()``. Statuses are buffered without
    /// bound for a slow consumer (each is a few bytes, and they only come with network changes).
    public var updates: AsyncStream<ReachabilityStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReachabilityStatus.self, bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextSubscriberID
            state.nextSubscriberID &+= 1
            state.subscribers[id] = continuation
            continuation.yield(state.status)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
