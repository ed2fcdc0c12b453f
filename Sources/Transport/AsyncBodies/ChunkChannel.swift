// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Synchronization

/// The hand-over between a streaming transfer (producer, on the engine thread) and the task
/// iterating its body (consumer), with backpressure: past ``highWater`` buffered bytes the
/// transfer pauses; it resumes once the consumer drains below ``lowWater``.
final class ChunkChannel: Sendable {
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    private struct State {
        var head: Result<HTTPResponse, SatchelError>?
        var headWaiter: CheckedContinuation<HTTPResponse, any Error>?
        var chunks: [[UInt8]] = []
        var chunkIndex = 0
        var buffered = 0
        var paused = false
        var end: SatchelError??  // nil: running; .some(nil): complete; .some(error): failed
        var chunkWaiter: CheckedContinuation<[UInt8]?, any Error>?
    }

    private let state = Mutex(State())
    let cancellation: TransferCancellation

    init(cancellation: TransferCancellation) {
        self.cancellation = cancellation
    }

    // MARK: producer (engine thread)

    func deliver(head: HTTPResponse) {
        let waiter = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            state.head = .success(head)
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: head)
    }

    /// Offers bytes; `false` means "full: pause and offer them again later".
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>?? in
            if state.buffered >= Self.highWater {
                state.paused = true
                return nil
            }
            if let waiter = state.chunkWaiter {
                state.chunkWaiter = nil
                return .some(waiter)
            }
            state.chunks.append(Array(bytes))
            state.buffered += bytes.count
            return .some(nil)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: Array(bytes))
        return true
    }

    /// The transfer (with all its attempts) ended.
    func close(error: SatchelError?) {
        typealias Waiters = (
            head: CheckedContinuation<HTTPResponse, any Error>?, headFailure: SatchelError?,
            chunk: CheckedContinuation<[UInt8]?, any Error>?
        )
        let (headWaiter, headFailure, chunkWaiter) = state.withLock { state -> Waiters in
            state.end = .some(error)
            if state.head == nil {
                state.head = .failure(error ?? SatchelError(.networkFailure, "the request ended without a response"))
            }
            defer {
                state.headWaiter = nil
                state.chunkWaiter = nil
            }
            guard case let .failure(failure)? = state.head else { return (nil, nil, state.chunkWaiter) }
            return (state.headWaiter, failure, state.chunkWaiter)
        }
        if let headWaiter, let headFailure { headWaiter.resume(throwing: headFailure) }
        if let chunkWaiter {
            if let error { chunkWaiter.resume(throwing: error) } else { chunkWaiter.resume(returning: nil) }
        }
    }

    // MARK: consumer

    func awaitHead() async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<HTTPResponse, SatchelError>? in
                if let head = state.head { return head }
                state.headWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The next chunk, or `nil` at the end.
    func next() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            let (ready, resume) = state.withLock { state -> (Result<[UInt8]?, SatchelError>?, Bool) in
                if state.chunkIndex < state.chunks.count {
                    let chunk = state.chunks[state.chunkIndex]
                    state.chunkIndex += 1
                    state.buffered -= chunk.count
                    if state.chunkIndex == state.chunks.count {
                        state.chunks.removeAll(keepingCapacity: true)
                        state.chunkIndex = 0
                    }
                    let resume = state.paused && state.buffered < Self.lowWater
                    if resume { state.paused = false }
                    return (.success(chunk), resume)
                }
                if let end = state.end { return (end.map { .failure($0) } ?? .success(nil), false) }
                state.chunkWaiter = continuation
                let resume = state.paused
                state.paused = false
                return (nil, resume)
            }
            if resume { cancellation.resume() }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
