// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The write end of the signal self-pipe: set once, before the handler is installed, and then
/// only read — by the handler, which may run on any thread at any time.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns SIGINT and SIGTERM into an event a task can await (the self-pipe trick): a `sigaction`
/// handler writes a byte to a pipe, which a dispatch read source watches.
///
/// A real handler rather than a dispatch signal source: on Linux a dispatch source sees a
/// signal only when it is not ignored, and a server started from a script's background job
/// inherits SIGINT ignored — it must still stop on Ctrl-C or `kill -INT`.
///
/// `@unchecked Sendable`: the read source is created in `init` and cancelled in `deinit` only,
/// dispatch sources are thread-safe, and the stream is Sendable.
final class SignalWaiter: @unchecked Sendable {
    private let source: any DispatchSourceRead
    private let stream: AsyncStream<Void>

    /// Starts catching `signals`; only one waiter may exist in a process.
    ///
    /// - Throws: ``SatchelError/Code/internal`` when the pipe cannot be made.
    init(signals: [Int32]) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw SatchelError(.internal, "cannot create the signal pipe: \(String(cString: strerror(errno)))")
        }
        let readEnd = ends[0]
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        signalPipeWriteEnd = ends[1]
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        self.stream = stream
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
        source.setEventHandler {
            var drained = [UInt8](repeating: 0, count: 64)
            _ = read(readEnd, &drained, drained.count)
            continuation.yield()
        }
        source.resume()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(signalPipeWriteEnd, &byte, 1)  // async-signal-safe
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for number in signals { sigaction(number, &action, nil) }
    }

    deinit {
        source.cancel()
    }

    /// Returns when one of the signals arrives (or the task is cancelled).
    func next() async {
        for await _ in stream { return }
    }
}
