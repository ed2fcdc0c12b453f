import SerializerRegistry
import Synchronization

/// Cancels whichever attempt of a request is running, and keeps later attempts from starting.
final class TransferCancellation: Sendable {
    private struct State {
        var transfer: Transfer?
        var reason: SatchelError?
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
        let transfer: Transfer? = state.withLock { state in
            guard state.reason == nil else { return nil }
            state.reason = reason
            return state.transfer
        }
        if let transfer { engine.enqueue(.cancel(transfer, reason)) }
    }

    /// Starts `transfer` on the engine, cancelled at once when the request already is.
    func start(_ transfer: Transfer) {
        let reason: SatchelError? = state.withLock { state in
            state.transfer = transfer
            return state.reason
        }
        engine.enqueue(.start(transfer))
        if let reason { engine.enqueue(.cancel(transfer, reason)) }
    }

    /// Forgets the attempt that has ended (a later ``cancel(_:)`` still stops later attempts).
    func finish() {
        state.withLock { $0.transfer = nil }
    }

    /// Asks the engine to resume a paused transfer.
    func resume() {
        if let transfer = state.withLock({ $0.transfer }) { engine.enqueue(.resume(transfer)) }
    }
}
