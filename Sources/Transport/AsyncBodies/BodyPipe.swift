// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Synchronization

/// A request body produced while it is sent: a task writes the chunks of a ``BodyChunks``
/// sequence in, and the transfer takes them out from its read callback, pausing while the pipe
/// is empty and resumed by the next write. The writer waits while 1 MiB is buffered.
final class BodyPipe: BodyStream, Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var head = 0
        var offset = 0
        var buffered = 0
        var ended = false
        var failure: SatchelError?
        /// Set when the transfer ended: writes fail with it.
        var closed: SatchelError?
        var readerWaits = false
        var writer: CheckedContinuation<Void, any Error>?
        var wake: (@Sendable () -> Void)?
        var producer: Task<Void, Never>?
    }

    /// Bytes buffered before a write waits.
    static let highWater = 1 << 20

    private let state = Mutex(State())

    /// Starts a task that writes `chunks` into a new pipe.
    init(_ chunks: BodyChunks) {
        let producer = Task { [self] in
            do {
                try await chunks.write(self)
                finish()
            } catch {
                fail(error)
            }
        }
        state.withLock { $0.producer = producer }
    }

    var length: Int64? { nil }
    var isRewindable: Bool { false }

    /// The transfer reads through ``readAvailable(into:)``; this is for other readers, which
    /// must not wait for bytes.
    /// - Throws: ``SatchelError/Code/misuse`` when no bytes are buffered yet.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch try readAvailable(into: buffer) {
        case .bytes(let count): return count
        case .end: return 0
        case .wouldBlock:
            throw SatchelError(.misuse, "the request body has no bytes yet; only a transfer can wait for them")
        }
    }

    func rewind() throws {
        throw SatchelError(.invalidArgument, "a request body written from an async sequence cannot be sent again")
    }

    /// Sets what a write calls to wake a transfer that waits for bytes (the transfer's resume).
    func connect(wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Copies buffered bytes into `buffer`; ``BodyRead/wouldBlock`` when none are buffered yet
    /// (the next write wakes the transfer).
    /// - Throws: The producer's error: the sequence failed, so the body would be short.
    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(SatchelError) -> BodyRead {
        let (read, writer) = try state.withLock {
            state throws(SatchelError) -> (BodyRead, CheckedContinuation<Void, any Error>?) in
            if let failure = state.failure { throw failure }
            var copied = 0
            while copied < buffer.count, state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                let count = min(buffer.count - copied, chunk.count - state.offset)
                chunk.withUnsafeBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)])
                        .copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: bytes[state.offset..<(state.offset + count)]))
                }
                copied += count
                state.offset += count
                if state.offset == chunk.count {
                    state.head += 1
                    state.offset = 0
                }
            }
            state.buffered -= copied
            if state.head == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.head = 0
            }
            if copied > 0 {
                let writer = state.buffered < Self.highWater / 2 ? state.writer : nil
                if writer != nil { state.writer = nil }
                return (.bytes(copied), writer)
            }
            if state.ended { return (.end, nil) }
            state.readerWaits = true
            return (.wouldBlock, nil)
        }
        writer?.resume()
        return read
    }

    /// Appends a chunk, waiting first while the buffer is full.
    /// - Throws: ``SatchelError`` once the transfer has ended (the rest is not wanted).
    func write(_ chunk: [UInt8]) async throws {
        guard !chunk.isEmpty else { return }
        while true {
            let (written, wake) = try state.withLock { state throws(SatchelError) -> (Bool, (@Sendable () -> Void)?) in
                if let closed = state.closed { throw closed }
                guard state.buffered < Self.highWater else { return (false, nil) }
                state.chunks.append(chunk)
                state.buffered += chunk.count
                return (true, wakeReader(&state))
            }
            wake?()
            if written { return }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let verdict = state.withLock { state -> Result<Void, any Error>? in
                    if let closed = state.closed { return .failure(closed) }
                    if state.buffered < Self.highWater { return .success(()) }  // drained meanwhile
                    state.writer = continuation  // resumed by readAvailable(into:) or close()
                    return nil
                }
                if let verdict { continuation.resume(with: verdict) }
            }
        }
    }

    /// The transfer ended (completely or not): the producer stops, buffered bytes are dropped.
    func close() {
        let (writer, producer) = state.withLock { state in
            if state.closed == nil {
                state.closed = SatchelError(.cancelled, "the request ended before its body was written")
            }
            state.chunks.removeAll()
            state.buffered = 0
            state.wake = nil
            defer { state.writer = nil }
            return (state.writer, state.producer)
        }
        writer?.resume(throwing: SatchelError(.cancelled, "the request ended before its body was written"))
        producer?.cancel()
    }

    private func finish() {
        let wake = state.withLock { state in
            state.ended = true
            return wakeReader(&state)
        }
        wake?()
    }

    private func fail(_ error: any Error) {
        let wake = state.withLock { state in
            if state.closed != nil { return nil as (@Sendable () -> Void)? }
            state.failure =
                error as? SatchelError
                ?? SatchelError(.io, "the request body's sequence failed: \(error)", underlying: error)
            return wakeReader(&state)
        }
        wake?()
    }

    /// The wake to call, if the transfer waits for bytes.
    private func wakeReader(_ state: inout State) -> (@Sendable () -> Void)? {
        guard state.readerWaits else { return nil }
        state.readerWaits = false
        return state.wake
    }
}

/// A request body written from an async sequence of byte chunks while it is sent (chunked,
/// without Content-Length), for bodies produced as they go: a JSON Lines upload, a proxy.
///
/// The sequence is iterated once, when the request is sent: such a body is never sent again
/// (no retry, no 307/308 redirect with the body). When the sequence throws, the transfer fails
/// with its error (a ``SatchelError`` as it is, any other as ``SatchelError/Code/io``) instead
/// of sending a short body.
///
/// ```swift
/// let (chunks, input) = AsyncStream.makeStream(of: [UInt8].self)
/// let task = Task { try await session.upload(.chunks(BodyChunks(chunks), contentType: nil), to: "ingest") }
/// input.yield(Array("first\n".utf8)); input.finish()
/// ```
public struct BodyChunks: Sendable {
    let write: @Sendable (BodyPipe) async throws -> Void

    /// The chunks of `sequence`, in order (empty chunks are skipped).
    public init<Chunks: AsyncSequence & Sendable>(_ sequence: Chunks) where Chunks.Element == [UInt8] {
        write = { pipe in
            for try await chunk in sequence { try await pipe.write(chunk) }
        }
    }

    /// A body that `produce` writes chunk by chunk with the function it is given (which waits
    /// while 1 MiB is buffered, and throws once the request has ended).
    public init(_ produce: @escaping @Sendable (_ write: @Sendable ([UInt8]) async throws -> Void) async throws -> Void)
    {
        write = { pipe in try await produce { try await pipe.write($0) } }
    }
}
