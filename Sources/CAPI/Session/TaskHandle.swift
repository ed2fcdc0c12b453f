// SPDX-License-Identifier: Apache-2.0
import CSatchel
import Dispatch
import HTTPTypes
import SerializerRegistry
import Synchronization
import Transport

/// The object behind a `satchel_task *`, and the machinery of every send: a Swift task that
/// sends the request with the body going where the request says (memory, a file, a data
/// callback), whose end wakes the C threads waiting for it.
final class TaskHandle: Sendable, CHandle {
    static let parameterName = "task"

    /// What a send produced: the response or the failure, and for a download what was saved.
    struct Outcome: Sendable {
        var result: Result<DataResponse, SatchelError>
        var download: (fileSize: Int64, resumedFrom: Int64)?

        /// The send's error: the failure, or the response's error.
        var error: SatchelError? {
            switch result {
            case let .success(response): response.error
            case let .failure(error): error
            }
        }
    }

    private struct State {
        var task: Task<Void, Never>?
        var cancelRequested = false
        /// The data callback's pause, waiting for ``resume()``.
        var pause: CheckedContinuation<Void, Never>?
        /// A resume that arrived before the pause it answers.
        var resumeRequested = false
    }

    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    /// Whether the caller holds the task (satchel_session_send_async) and can resume a pause.
    private let isResumable: Bool

    private init(isResumable: Bool) {
        self.isResumable = isResumable
    }

    /// Starts sending `request`; `completion` runs once with the outcome, then waiters wake.
    ///
    /// - Parameter isResumable: whether the caller gets the task, so that a data callback may
    ///   pause.
    /// - Throws: What building the request throws (no request serializer for the parameters'
    ///   media type).
    static func start(
        session: Session, request: RequestHandle, isResumable: Bool,
        completion: @escaping @Sendable (Outcome) -> Void
    ) throws -> TaskHandle {
        let handle = TaskHandle(isResumable: isResumable)
        let sessionRequest = try request.sessionRequest(registry: session.registry) { [weak handle] in
            handle?.cancel()
        }
        var destination = request.destination
        if case .records(var callback) = destination {
            callback.each = request.recordPath
            destination = .records(callback)
        }
        let task = Task {
            let outcome = await handle.send(sessionRequest, to: destination, on: session)
            completion(outcome)
            handle.finished.signal()
        }
        let cancelledEarly = handle.state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancelledEarly { task.cancel() }
        return handle
    }

    /// Cancels the transfer (also before it has started, and while paused).
    func cancel() {
        let (task, pause) = state.withLock { state in
            state.cancelRequested = true
            defer { state.pause = nil }
            return (state.task, state.pause)
        }
        task?.cancel()
        pause?.resume()
    }

    /// Lets a paused data callback's transfer go on; a resume before the pause cancels it out.
    func resume() {
        let pause = state.withLock { state in
            defer { state.pause = nil }
            if state.pause == nil { state.resumeRequested = true }
            return state.pause
        }
        pause?.resume()
    }

    /// Blocks the calling thread until the completion has returned.
    func wait() {
        finished.wait()
        finished.signal()  // lets the next waiter through too
    }

    private func send(
        _ request: SessionRequest, to destination: RequestHandle.Destination, on session: Session
    ) async -> Outcome {
        switch destination {
        case .memory:
            // On this task, not a SessionTask's own: one task less to wake (cancelling this task
            // cancels the transfer, as `cancel()` does).
            return Outcome(result: await session.result(for: request))
        case .file(let path, let resume, let durability):
            switch await session.downloadResponse(for: request, to: path, resume: resume, durability: durability) {
            case let .failure(error):
                return Outcome(result: .failure(error))
            case let .success(result):
                let saved = result.error == nil ? (result.fileSize, result.resumedFrom) : nil
                return Outcome(
                    result: .success(
                        DataResponse(
                            request: result.request, url: result.url, response: result.response, body: result.errorBody,
                            decoded: nil, error: result.error, metrics: result.metrics)),
                    download: saved)
            }
        case .callback(let callback):
            return Outcome(
                result: await stream(request, on: session) { request in
                    let body = try await session.bytes(for: request)
                    return (body.response, body, body.cancel)
                } deliver: {
                    callback.deliver($0)
                })
        case .records(let callback):
            return Outcome(
                result: await stream(request, on: session) { request in
                    let records =
                        if let each = callback.each {
                            try await session.records(for: request, each: each.path, namespaces: each.namespaces)
                        } else {
                            try await session.records(for: request)
                        }
                    return (records.response, records, records.cancel)
                } deliver: {
                    callback.deliver($0)
                })
        }
    }

    /// Delivers what `open` streams (body chunks, records) to a C callback one by one, pausing
    /// when it asks.
    /// - Parameters:
    ///   - open: Sends the request: the response head, its elements and how to stop them.
    ///   - deliver: Calls the callback with an element and returns its verdict
    ///     (`SATCHEL_DATA_CONTINUE`, `SATCHEL_DATA_PAUSE`, else cancel).
    private func stream<Elements: AsyncSequence>(
        _ request: SessionRequest, on session: Session,
        open: (SessionRequest) async throws -> (HTTPResponse, Elements, () -> Void),
        deliver: (Elements.Element) -> Int32
    ) async -> Result<DataResponse, SatchelError> {
        var received: HTTPResponse?
        var failure: SatchelError?
        do {
            let (head, elements, cancel) = try await open(request)
            received = head
            for try await element in elements {
                switch deliver(element) {
                case SATCHEL_DATA_CONTINUE: continue
                case SATCHEL_DATA_PAUSE:
                    guard isResumable else {
                        cancel()
                        throw SatchelError(
                            .misuse,
                            "the callback paused a transfer sent with satchel_session_send: no task resumes it")
                    }
                    await waitForResume()
                    try Task.checkCancellation()
                default:
                    cancel()
                    throw SatchelError(.cancelled, "\(request.url): the callback cancelled the transfer")
                }
            }
        } catch {
            let error =
                error is CancellationError
                ? SatchelError(.cancelled, "\(request.url): the request was cancelled") : SatchelError.wrap(error)
            failure = error
            received = received ?? error.response
        }
        guard let received else {
            return .failure(failure ?? SatchelError(.internal, "\(request.url): no response"))
        }
        let head = HTTPRequest(method: request.method, scheme: nil, authority: nil, path: request.url)
        return .success(
            DataResponse(
                request: head, url: request.url, response: received, body: [], decoded: nil, error: failure,
                metrics: TransferMetrics()))
    }

    /// Suspends until ``resume()`` or ``cancel()``.
    private func waitForResume() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { state in
                if state.resumeRequested || state.cancelRequested {
                    state.resumeRequested = false
                    return true
                }
                state.pause = continuation
                return false
            }
            if proceed { continuation.resume() }
        }
    }
}

/// A C data callback and its userdata, called on a library thread, one call at a time.
struct DataCallback: @unchecked Sendable {
    // Safe to send: the header makes the caller keep `userdata` valid, and the callback callable
    // from a library thread, until the transfer ends; the stream calls it from one task.
    let function: satchel_data_callback
    let userdata: UnsafeMutableRawPointer?

    func deliver(_ chunk: [UInt8]) -> Int32 {
        chunk.withUnsafeBufferPointer { function(userdata, $0.baseAddress, $0.count) }
    }
}

/// A C record callback and its userdata, called on a library thread, one call at a time.
struct RecordCallback: @unchecked Sendable {
    // Safe to send: as for DataCallback, the header makes the caller keep `userdata` valid and
    // the callback callable from a library thread until the transfer ends.
    let function: satchel_record_callback
    let userdata: UnsafeMutableRawPointer?
    /// The path whose elements are the records (`satchel_request_set_record_path`), or `nil`
    /// for a record stream's records.
    var each: (path: String, namespaces: [String: String])?

    /// Calls the callback with `record`, borrowed for the call.
    func deliver(_ record: Value) -> Int32 {
        let handle = ValueHandle(record)
        return withExtendedLifetime(handle) { function(userdata, handle.borrowedPointer) }
    }
}
