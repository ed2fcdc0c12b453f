// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import Testing

/// Runs iproute2's `ip` for the reachability tests, which change routes, addresses and links of
/// the real kernel (and undo the change afterwards).
enum IPCommand {
    /// A number unique to this test process, so concurrent runs pick different addresses,
    /// tables and interface names.
    static let slot = Int(ProcessInfo.processInfo.processIdentifier) % 250 + 1

    /// Whether `ip` exists and may change routes here (root or `CAP_NET_ADMIN`): adds and
    /// removes a route in a private table once.
    static let isPermitted: Bool = {
        let table = "\(31_000 + slot)"
        guard run(["route", "add", "unreachable", "198.51.100.254/32", "table", table]).status == 0 else {
            return false
        }
        run(["route", "del", "unreachable", "198.51.100.254/32", "table", table])
        return true
    }()

    /// Runs `ip arguments…`; its exit status and standard output plus error.
    @discardableResult
    static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "cannot run ip: \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `ip arguments…` and records an issue when it fails.
    static func must(_ arguments: [String]) -> Bool {
        let (status, output) = run(arguments)
        if status != 0 { Issue.record("ip \(arguments.joined(separator: " ")) failed (\(status)): \(output)") }
        return status == 0
    }
}

/// Collects what an async sequence or callback delivers, for polling with a deadline.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    /// Appends one element.
    func append(_ element: Element) { storage.withLock { $0.append(element) } }

    /// What has arrived so far.
    var elements: [Element] { storage.withLock { $0 } }

    /// Waits until `condition` holds for the elements, polling, or until a minute passes;
    /// whether it held. Never asserts on elapsed time: the bound only keeps a failure from hanging
    /// (a generous one: under the sanitized run's load, notifications can take seconds).
    func wait(until condition: ([Element]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if condition(elements) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(elements)
    }
}
