// SPDX-License-Identifier: Apache-2.0
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Ends the process cleanly on SIGINT (Ctrl-C): the progress line is closed, one line says
/// `satchel: interrupted`, and the exit status is 130 (128 + SIGINT, as shells report it). A
/// partial download stays in `FILE.part` for the next `--download` to resume; `--output` has
/// written nothing yet (it writes only a complete body, atomically).
final class InterruptHandler: Sendable {
    // nonisolated(unsafe): the source is created and resumed in init and only cancelled in
    // deinit; DispatchSource is thread-safe for these calls.
    nonisolated(unsafe) private let source: any DispatchSourceSignal

    /// Starts handling SIGINT until this handler is released.
    /// - Parameter progressBar: The bar to close before the message, if one is drawn.
    init(progressBar: ProgressBar?) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            progressBar?.abandon()
            CommandIO.writeError(Array("satchel: interrupted\n".utf8))
            exit(130)
        }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
