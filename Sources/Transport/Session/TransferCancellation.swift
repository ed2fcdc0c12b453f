// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Synchronization

/// Cancels whichever attempt of a request is running, and keeps later attempts from starting.
final class TransferCancellation: Sendable {
    private struct State {
        var transfer: Transfer?
        var reason: SatchelError?
        /// A stored response being fed to a sink that paused (``waitForResume()``).
        var replayWaiter: CheckedContinuation<Void, Never>?
        /// A resume that came while no transfer ran and no replay waited.
        var resumePending = false
    }

    private let engine: TransferEngine
    private let state = Mutex(State())

    init(engine: TransferEngine) {
        self.engine = engine
    }

    /// Why the request was cancelled, once it was.
    var reason: SatchelError? { state.withLock { $0.reason } }

    /// Cancels the running attempt (if any) and every later one.
    func cancel(_ reason: SatchelError) {
        let (transfer, waiter) = state.withLock { state -> (Transfer?, CheckedContinuation<Void, Never>?) in
            guard state.reason == nil else { return (nil, nil) }
            state.reason = reason
            defer { state.replayWaiter = nil }
            return (state.transfer, state.replayWaiter)
        }
        if let transfer { engine.enqueue(.cancel(transfer, reason)) }
        waiter?.resume()
    }

    /// Starts `transfer` on the engine, cancelled at once when the request already is; the
    /// calling thread drives it when `leading` and nobody else drives the engine
    /// (``TransferEngine/start(_:leading:)``).
    func start(_ transfer: Transfer, leading: Bool) {
        let reason: SatchelError? = state.withLock { state in
            state.transfer = transfer
            return state.reason
        }
        guard let reason else { return engine.start(transfer, leading: leading) }
        engine.enqueue(.start(transfer))
        engine.enqueue(.cancel(transfer, reason))
    }

    /// Forgets the attempt that has ended (a later ``cancel(_:)`` still stops later attempts).
    func finish() {
        state.withLock { $0.transfer = nil }
    }

    /// Asks the engine to resume a paused transfer, or wakes a paused replay of a stored response.
    func resume() {
        let (transfer, waiter) = state.withLock { state -> (Transfer?, CheckedContinuation<Void, Never>?) in
            defer { state.replayWaiter = nil }
            if state.transfer == nil && state.replayWaiter == nil { state.resumePending = true }
            return (state.transfer, state.replayWaiter)
        }
        if let transfer { engine.enqueue(.resume(transfer)) }
        waiter?.resume()
    }

    /// Waits until ``resume()`` or ``cancel(_:)`` (returns at once when either came since the
    /// last wait): a stored response fed to a sink that paused goes on from here.
    func waitForResume() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.resumePending || state.reason != nil {
                    state.resumePending = false
                    return true
                }
                state.replayWaiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
