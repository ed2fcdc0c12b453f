// SPDX-License-Identifier: Apache-2.0
@preconcurrency import Rainbow
import Satchel
import Synchronization

/// What `satchel demo` prints: a heading per step, what was sent and what came back, and a
/// check mark or the reason a step failed.
final class DemoReporter: Sendable {
    private let printer: ValuePrinter
    private let colors: Bool
    private let step = Mutex(0)

    init(printer: ValuePrinter, colors: Bool) {
        self.printer = printer
        self.colors = colors
    }

    /// A line of text.
    func line(_ text: String) {
        try? CommandIO.write(Array((text + "\n").utf8))
    }

    /// The heading of the next step.
    func heading(_ title: String) {
        let number = step.withLock { count in
            count += 1
            return count
        }
        line("")
        line(styled("[\(number)/\(DemoSteps.count)] \(title)", bold: true))
    }

    /// What was sent: a request line and, when given, the body as text.
    func sent(_ requestLine: String, body: String? = nil) {
        line(styled("→ ", dim: true) + requestLine)
        if let body {
            line(ValuePrinter.indented(body.hasSuffix("\n") ? body : body + "\n", by: "    "), terminator: "")
        }
    }

    /// What came back: a status line and the decoded value, printed readably.
    func got(_ statusLine: String, value: Value? = nil) {
        line(styled("← ", dim: true) + statusLine)
        if let value {
            var text = ""
            printer.append(value, indent: "    ", to: &text)
            line(text, terminator: "")
        }
    }

    /// A note under the current step.
    func note(_ text: String) {
        line("  " + text)
    }

    /// The step's verdict.
    func passed(_ detail: String) {
        line(styled("✓ ", green: true) + detail)
    }

    /// A failed step's reason.
    func failed(_ reason: String) {
        line(styled("✗ ", red: true) + reason)
    }

    /// The closing line.
    func summary(passed: Int, of total: Int) {
        line("")
        let text = "\(passed) of \(total) steps worked"
        line(passed == total ? styled(text, green: true) : styled(text, red: true))
    }

    private func line(_ text: String, terminator: String) {
        try? CommandIO.write(Array((text + terminator).utf8))
    }

    private func styled(
        _ text: String, bold: Bool = false, dim: Bool = false, green: Bool = false, red: Bool = false
    ) -> String {
        guard colors else { return text }
        var result = text
        if bold { result = result.bold }
        if dim { result = result.dim }
        if green { result = result.green }
        if red { result = result.red }
        return result
    }
}
