import CSatchel
import Dispatch
import SerializerRegistry
import Synchronization
import Transport

/// The object behind a `satchel_task *`, and the machinery of every send: a ``SessionTask``
/// whose end wakes the C threads waiting for it.
final class TaskHandle: Sendable, CHandle {
    static let parameterName = "task"

    private struct State {
        var task: SessionTask?
        var cancelRequested = false
    }

    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    private init() {}

    /// Starts sending `request`; `completion` runs once with the response, then waiters wake.
    ///
    /// - Throws: What building the request throws (no request serializer for the parameters'
    ///   media type).
    static func start(
        session: Session, request: RequestHandle, completion: @escaping @Sendable (DataResponse) -> Void
    ) throws -> TaskHandle {
        let handle = TaskHandle()
        let sessionRequest = try request.sessionRequest(registry: session.registry) { [weak handle] in
            handle?.cancel()
        }
        let task = session.task(for: sessionRequest)
        let cancelledEarly = handle.state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancelledEarly { task.cancel() }
        Task {
            let response = await task.response
            completion(response)
            handle.finished.signal()
        }
        return handle
    }

    /// Cancels the transfer (also before it has started).
    func cancel() {
        let task = state.withLock { state in
            state.cancelRequested = true
            return state.task
        }
        task?.cancel()
    }

    /// Blocks the calling thread until the completion has returned.
    func wait() {
        finished.wait()
        finished.signal()  // lets the next waiter through too
    }
}
