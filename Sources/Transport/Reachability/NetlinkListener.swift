// SPDX-License-Identifier: Apache-2.0
import CSatchelNetlink
import Dispatch
import Synchronization

/// Listens for rtnetlink notifications (links, IPv4 and IPv6 addresses, IPv4 and IPv6 routes)
/// and reports them in batches, after a short quiet period, to a callback.
///
/// The socket is watched by a Dispatch read source on a private serial queue; ``cancel()``
/// closes it and waits until it is closed (unless called on that queue, where waiting would
/// deadlock: the socket is then closed right after the current handler returns).
// @unchecked: `source` (not Sendable) is set once in init and afterwards only cancelled, which
// Dispatch allows from any thread; every other stored property is Sendable.
final class NetlinkListener: @unchecked Sendable {
    /// What a notification was about.
    enum Change: Hashable, Sendable {
        /// A link appeared, vanished or changed state (`RTM_NEWLINK`, `RTM_DELLINK`).
        case link
        /// An address was added or removed (`RTM_NEWADDR`, `RTM_DELADDR`).
        case address
        /// A route was added or removed (`RTM_NEWROUTE`, `RTM_DELROUTE`).
        case route
        /// The kernel dropped notifications (`ENOBUFS`) or the socket failed: anything may have changed.
        case overrun
    }

    /// The multicast groups the listener joins.
    static let groups = UInt32(
        RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE)

    /// Marks each listener's queue with the listener's identity, so ``cancel()`` knows when it runs there.
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// The socket's descriptor number (closed after ``cancel()``; the number may then be reused).
    let descriptor: Int32
    private let source: any DispatchSourceRead
    private let closed: DispatchSemaphore
    private let shared: Shared

    /// What the handlers and ``cancel()`` share.
    private final class Shared: Sendable {
        let isCancelled = Atomic(false)
        let pending = Mutex(Set<Change>())
    }

    /// Opens the socket and starts listening.
    /// - Parameters:
    ///   - debounceMilliseconds: how long after the first notification of a burst the batch is
    ///     reported; notifications arriving meanwhile join it.
    ///   - onChange: called on the listener's queue with each batch (never empty).
    /// - Throws: ``SatchelError/Code/io`` when the socket cannot be opened.
    init(debounceMilliseconds: Int = 100, onChange: @escaping @Sendable (Set<Change>) -> Void) throws {
        let socket = try NetlinkSocket(groups: Self.groups, nonBlocking: true)
        let queue = DispatchQueue(label: "satchel.reachability.netlink")
        let shared = Shared()
        let closed = DispatchSemaphore(value: 0)
        descriptor = socket.descriptor
        source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
        source.setEventHandler {
            let changes = Self.drain(socket)
            guard !changes.isEmpty else { return }
            let startsBatch = shared.pending.withLock { batch in
                defer { batch.formUnion(changes) }
                return batch.isEmpty
            }
            guard startsBatch else { return }
            queue.asyncAfter(deadline: .now() + .milliseconds(debounceMilliseconds)) {
                let batch = shared.pending.withLock { batch in
                    defer { batch = [] }
                    return batch
                }
                if !shared.isCancelled.load(ordering: .acquiring) && !batch.isEmpty { onChange(batch) }
            }
        }
        source.setCancelHandler {
            socket.close()
            closed.signal()
        }
        self.closed = closed
        self.shared = shared
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        source.resume()
    }

    deinit { cancel() }

    /// Stops listening and closes the socket; later calls do nothing.
    func cancel() {
        guard !shared.isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        source.cancel()
        if DispatchQueue.getSpecific(key: Self.queueKey) != ObjectIdentifier(self) { closed.wait() }
    }

    /// Reads every datagram waiting (at most 64, so a flood cannot starve the queue; the source
    /// fires again) and says what they were about.
    private static func drain(_ socket: NetlinkSocket) -> Set<Change> {
        var changes = Set<Change>()
        for _ in 0..<64 {
            do {
                guard let messages = try socket.receive() else { break }
                for message in messages {
                    if let change = change(of: message.type) { changes.insert(change) }
                }
            } catch {
                changes.insert(.overrun)
                break
            }
        }
        return changes
    }

    /// The kind of change a notification of `type` reports, if any.
    static func change(of type: UInt16) -> Change? {
        switch Int(type) {
        case Int(RTM_NEWLINK), Int(RTM_DELLINK): .link
        case Int(RTM_NEWADDR), Int(RTM_DELADDR): .address
        case Int(RTM_NEWROUTE), Int(RTM_DELROUTE): .route
        default: nil
        }
    }
}
