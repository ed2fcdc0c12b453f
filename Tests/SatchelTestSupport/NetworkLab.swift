// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The project's own test host: a network namespace joined to this one by a veth pair, with
/// `satchel serve` running inside it, so that a test can take the link down and up, or (where
/// the kernel has it) shape it with `tc netem`. Needs root; removed when released.
public final class NetworkLab: @unchecked Sendable {
    // Immutable after init; `server` is only signalled in deinit.
    /// The namespace's name.
    public let namespace: String
    /// This side of the link, and the namespace's side.
    public let hostAddress: String
    public let labAddress: String
    /// `satchel serve` in the namespace: `http://LAB_ADDRESS:PORT`.
    public let serverURL: URL
    private let hostInterface: String
    private let labInterface: String
    private let server = Process()

    private static let counter = Atomic<Int>(0)

    /// Why the lab cannot be made here, or `nil` when it can (root, `ip netns`, veth), and the
    /// run asked for it with `SATCHEL_NETWORK_LAB=1`: its links and routes would show up in the
    /// reachability tests, and its descriptor counts would see other tests' files, so
    /// `scripts/test` runs the lab's tests alone, after the rest.
    public static let unavailableReason: String? = {
        guard ProcessInfo.processInfo.environment["SATCHEL_NETWORK_LAB"] == "1" else {
            return
                "the network lab runs alone: SATCHEL_NETWORK_LAB=1 swift test --filter NetworkFaultTests (scripts/test does)"
        }
        guard getuid() == 0 else { return "network namespaces need root (CI runs the tests as root)" }
        let name = "satchel-probe-\(getpid())"
        defer { _ = try? run(["ip", "netns", "del", name]) }
        do {
            try run(["ip", "netns", "add", name])
        } catch {
            return "this machine refuses network namespaces: \(error)"
        }
        return nil
    }()

    /// Why `tc netem` cannot shape the lab's link here, or `nil` when it can.
    public static let netemUnavailableReason: String? = {
        if let unavailableReason { return unavailableReason }
        let name = "satchel-netem-\(getpid())"
        defer { _ = try? run(["ip", "netns", "del", name]) }
        do {
            try run(["ip", "netns", "add", name])
            try run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"])
            try run(["ip", "netns", "exec", name, "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms"])
        } catch {
            return "this kernel cannot shape links with tc netem: \(error)"
        }
        return nil
    }()

    /// Makes the namespace and the link, and starts `satchel serve` inside.
    /// - Throws: `TestServers.StartError` saying why, when a step fails.
    public init() throws {
        if let reason = Self.unavailableReason { throw TestServers.StartError(reason) }
        let index = Self.counter.add(1, ordering: .relaxed).newValue
        let tag = "\(getpid() % 100_000)\(index)"
        namespace = "satchel-lab-\(tag)"
        hostInterface = "sl\(tag)h"
        labInterface = "sl\(tag)n"
        let subnet = (Int(getpid()) + index * 7) % 250 + 1
        hostAddress = "10.233.\(subnet).1"
        labAddress = "10.233.\(subnet).2"
        let (namespace, hostInterface, labInterface, server) = (namespace, hostInterface, labInterface, server)
        func inside(_ arguments: [String]) throws { try Self.run(["ip", "netns", "exec", namespace] + arguments) }
        do {
            try Self.run(["ip", "netns", "add", namespace])
            try Self.run(["ip", "link", "add", hostInterface, "type", "veth", "peer", "name", labInterface])
            try Self.run(["ip", "link", "set", labInterface, "netns", namespace])
            try Self.run(["ip", "addr", "add", "\(hostAddress)/30", "dev", hostInterface])
            try Self.run(["ip", "link", "set", hostInterface, "up"])
            try inside(["ip", "addr", "add", "\(labAddress)/30", "dev", labInterface])
            try inside(["ip", "link", "set", labInterface, "up"])
            try inside(["ip", "link", "set", "lo", "up"])
            server.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            server.arguments = [
                "netns", "exec", namespace, BuiltProducts.satchel.path, "serve", "--host", labAddress, "--port", "0",
            ]
            let output = Pipe()
            server.standardOutput = output
            server.standardError = FileHandle.nullDevice
            server.standardInput = FileHandle.nullDevice
            try server.run()
            var line = Data()
            while !line.contains(0x0A) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.hasPrefix("Serving on "), let url = URL(string: String(text.dropFirst("Serving on ".count)))
            else { throw TestServers.StartError("satchel serve in the lab printed \(text)") }
            serverURL = url
        } catch {
            Self.tearDown(server, hostInterface, namespace)
            throw error
        }
    }

    deinit { Self.tearDown(server, hostInterface, namespace) }

    /// Takes this side of the link down or up: packets stop, connections stay until a timeout.
    public func setLink(up: Bool) throws {
        try Self.run(["ip", "link", "set", hostInterface, up ? "up" : "down"])
    }

    /// Shapes the namespace's side of the link with `tc netem` (`["delay", "100ms"]`,
    /// `["loss", "5%"]`); `[]` removes it.
    public func netem(_ arguments: [String]) throws {
        _ = try? inside(["tc", "qdisc", "del", "dev", labInterface, "root"])
        if !arguments.isEmpty { try inside(["tc", "qdisc", "add", "dev", labInterface, "root", "netem"] + arguments) }
    }

    /// Drops one packet in `n`, chosen at random, each way on the namespace's side of the link
    /// (nftables `numgen random`, counted); `0` stops dropping. For kernels without `tc netem`.
    public func dropPackets(oneIn n: Int) throws {
        _ = try? inside(["nft", "delete", "table", "inet", "satchel_lab"])
        guard n > 0 else { return }
        let rule = "numgen random mod \(n) 0 counter drop"
        try inside([
            "nft",
            "table inet satchel_lab { chain in { type filter hook input priority 0; \(rule); }; "
                + "chain out { type filter hook output priority 0; \(rule); }; }",
        ])
    }

    /// How many packets ``dropPackets(oneIn:)`` has dropped so far.
    public func droppedPackets() throws -> Int {
        let listing = try inside(["nft", "list", "table", "inet", "satchel_lab"])
        return listing.components(separatedBy: "packets ").dropFirst()
            .compactMap { Int($0.prefix { $0.isNumber }) }.reduce(0, +)
    }

    /// Whether `nft` (Debian's nftables, installed by `scripts/setup`) is here for ``dropPackets(oneIn:)``.
    public static let canDropPackets = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nft")

    @discardableResult
    private func inside(_ arguments: [String]) throws -> String {
        return try Self.run(["ip", "netns", "exec", namespace] + arguments)
    }

    private static func tearDown(_ server: Process, _ hostInterface: String, _ namespace: String) {
        if server.isRunning {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        _ = try? run(["ip", "link", "del", hostInterface])
        _ = try? run(["ip", "netns", "del", namespace])
    }

    /// Runs a command (`ip`, `tc`) and waits.
    /// - Throws: `TestServers.StartError` with its standard error when it fails.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        let output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestServers.StartError(
                "\(arguments.joined(separator: " ")): \(String(decoding: complaint, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
