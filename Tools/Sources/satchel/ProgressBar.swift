// SPDX-License-Identifier: Apache-2.0
import Satchel
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A one-line progress bar on standard error for a transfer: direction, a bar, bytes done and
/// total, rate and time left; redrawn in place with `\r` and finished with a line of totals.
///
/// Fed from Transport's progress callback (already throttled to 100 ms) on the session's
/// transfer thread; the state sits behind a mutex so any thread may call it.
///
/// ```
/// ↑ [██████████░░░░░░░░░░]  52% 10.4 MiB / 20.0 MiB  8.1 MiB/s  ETA 1s
/// ```
final class ProgressBar: Sendable {
    private struct State {
        var last: TransferProgress?
        var started: ContinuousClock.Instant
        var drawn = false
        var finished = false
    }

    private let state: Mutex<State>
    private let width: Int
    private let write: @Sendable ([UInt8]) -> Void

    /// Creates a bar.
    /// - Parameters:
    ///   - width: Cells in the bar itself.
    ///   - write: Where the text goes; standard error by default.
    init(width: Int = 24, write: @escaping @Sendable ([UInt8]) -> Void = CommandIO.writeError) {
        self.width = width
        self.write = write
        state = Mutex(State(started: .now))
    }

    /// Redraws the bar for `progress`.
    func update(_ progress: TransferProgress) {
        let line: String? = state.withLock { state in
            guard !state.finished else { return nil }
            state.last = progress
            state.drawn = true
            return render(progress, elapsed: ContinuousClock.now - state.started)
        }
        if let line { write(Array("\r\(line)\u{1B}[K".utf8)) }
    }

    /// Replaces the bar with a line of totals and ends it with a newline; later updates are
    /// ignored. Does nothing when no progress was drawn.
    func finish() {
        let line: String? = state.withLock { state in
            guard !state.finished, state.drawn, let last = state.last else { return nil }
            state.finished = true
            return summary(last, elapsed: ContinuousClock.now - state.started)
        }
        if let line { write(Array("\r\(line)\u{1B}[K\n".utf8)) }
    }

    /// Ends a drawn bar's line as it is (after an interruption); later updates are ignored.
    func abandon() {
        let drawn = state.withLock { state in
            defer { state.finished = true }
            return state.drawn && !state.finished
        }
        if drawn { write([10]) }
    }

    /// The bar's text for `progress` after `elapsed`.
    func render(_ progress: TransferProgress, elapsed: Duration) -> String {
        let uploading =
            (progress.expectedUploadBytes ?? 0) > 0 && progress.downloadedBytes == 0
            && progress.uploadedBytes < (progress.expectedUploadBytes ?? 0)
        let done = uploading ? progress.uploadedBytes : progress.downloadedBytes
        let total = uploading ? progress.expectedUploadBytes : progress.expectedDownloadBytes
        let seconds = Self.seconds(elapsed)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = uploading ? "↑ " : "↓ "
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let filled = Int((fraction * Double(width)).rounded(.down))
            line += "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
            line += " " + Self.padded("\(Int(fraction * 100))%", to: 4)
            line += " \(Self.bytes(done)) / \(Self.bytes(total))  \(Self.bytes(Int64(rate)))/s"
            if rate > 0, done < total {
                line += "  ETA \(Self.duration(Double(total - done) / rate))"
            }
        } else {
            line += "\(Self.bytes(done))  \(Self.bytes(Int64(rate)))/s"
        }
        return line
    }

    /// The final line: bytes each way, time and mean rate.
    func summary(_ progress: TransferProgress, elapsed: Duration) -> String {
        let seconds = Self.seconds(elapsed)
        var parts: [String] = []
        if progress.uploadedBytes > 0 { parts.append("↑ \(Self.bytes(progress.uploadedBytes))") }
        parts.append("↓ \(Self.bytes(progress.downloadedBytes))")
        let moved = progress.uploadedBytes + progress.downloadedBytes
        let rate = seconds > 0 ? Int64(Double(moved) / seconds) : moved
        return parts.joined(separator: "  ") + " in \(Self.duration(seconds)) (\(Self.bytes(rate))/s)  done"
    }

    /// `1023 B`, `1.5 KiB`, `20.0 MiB`, `1.2 GiB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `0.4s`, `12s`, `3m05s`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 10 {
            let tenths = Int((seconds * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)s"
        }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        let minutes = whole / 60
        let rest = whole % 60
        return "\(minutes)m\(rest < 10 ? "0" : "")\(rest)s"
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private static func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
