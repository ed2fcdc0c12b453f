// SPDX-License-Identifier: Apache-2.0
import Dispatch
import SerializerRegistry
import Synchronization

/// Watches whether the network, or one host, is reachable: AFNetworkReachabilityManager on Linux.
///
/// After ``start()``, the monitor listens to the kernel's rtnetlink notifications (links
/// appearing, going up or down, IPv4/IPv6 addresses and routes added or removed) and, a short
/// quiet period after each burst, decides the status again off the listening thread (host names
/// are resolved then, so a slow resolver never stalls the listener). Changes are reported
/// through ``updates`` and ``onChange``.
///
/// - Without a host, the status is reachable when the main routing table has a unicast default
///   route (IPv4 or IPv6) whose interface is up and running (AFNetworking's "reachability for
///   the internet connection", which asks about the zero address).
/// - With a host, it is reachable when the name resolves and the kernel would route a packet
///   to one of its addresses through an interface that is up and running; `unreachable`,
///   `blackhole` and `prohibit` routes count as no route.
///
/// Reachability says a packet has somewhere to go, not that the host will answer.
/// ``status(ofHost:)`` answers the same question once, without a monitor.
public final class NetworkReachability: Sendable {
    /// The host watched, as given; `nil` for the network in general.
    public let host: String?
    /// The routing table the general status looks for a default route in (tests use their own).
    let routingTable: UInt32
    /// How long the monitor waits after a notification for the burst it starts to end.
    let debounceMilliseconds: Int

    let state = Mutex(State())
    private let evaluationQueue = DispatchQueue(label: "satchel.reachability.evaluation")
    let callbackQueue = DispatchQueue(label: "satchel.reachability.callback")

    /// The mutable part, behind ``state``'s lock.
    struct State {
        var status = ReachabilityStatus.unknown
        var lastError: SatchelError?
        var listener: NetlinkListener?
        /// Bumped by each start and stop, so an evaluation that began before it is discarded.
        var generation: UInt64 = 0
        var isEvaluationQueued = false
        /// How many evaluations have finished for the running monitor (tests wait on it).
        var evaluations: UInt64 = 0
        var subscribers: [UInt64: AsyncStream<ReachabilityStatus>.Continuation] = [:]
        var nextSubscriberID: UInt64 = 0
        var onChange: (@Sendable (ReachabilityStatus) -> Void)?
    }

    /// Creates a monitor for `host`, or for the network in general when `host` is `nil`. It is
    /// idle, with status ``ReachabilityStatus/unknown``, until ``start()``.
    /// - Parameter host: a host name, or an IPv4 or IPv6 address (brackets allowed: `[::1]`).
    /// - Throws: ``SatchelError/Code/invalidArgument`` when `host` is empty, too long, or holds
    ///   spaces, control characters or URL syntax.
    public convenience init(host: String? = nil) throws {
        try self.init(host: host, routingTable: ReachabilityProbe.mainTable)
    }

    init(host: String?, routingTable: UInt32, debounceMilliseconds: Int = 100) throws {
        if let host { _ = try HostResolver.validated(host) }
        self.host = host
        self.routingTable = routingTable
        self.debounceMilliseconds = debounceMilliseconds
    }

    deinit {
        let (listener, subscribers) = state.withLock { state in
            defer {
                state.listener = nil
                state.subscribers = [:]
            }
            return (state.listener, Array(state.subscribers.values))
        }
        listener?.cancel()
        for subscriber in subscribers { subscriber.finish() }
    }

    /// The host's status once, now, without a monitor: what ``status`` would settle on.
    ///
    /// Blocks while the name resolves (for as long as the system resolver's timeouts allow).
    /// - Parameter host: as for ``init(host:)``; `nil` for the network in general.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a malformed host,
    ///   ``SatchelError/Code/io`` when the kernel cannot be asked.
    public static func status(ofHost host: String?) throws -> ReachabilityStatus {
        try ReachabilityProbe.status(host: host)
    }

    /// The current status: ``ReachabilityStatus/unknown`` before the first evaluation after
    /// ``start()``, after ``stop()``, and when the last evaluation failed (see ``lastError``).
    public var status: ReachabilityStatus { state.withLock { $0.status } }

    /// Why the last evaluation failed, if it did; cleared by the next one that succeeds.
    public var lastError: SatchelError? { state.withLock { $0.lastError } }

    /// How many evaluations have finished, for tests that need one to have happened.
    var evaluationCount: UInt64 { state.withLock { $0.evaluations } }

    /// Whether the monitor is running.
    public var isMonitoring: Bool { state.withLock { $0.listener != nil } }

    /// Called with each new status (never twice in a row with the same one), in order, on a
    /// private serial queue; AFNetworking's `setReachabilityStatusChangeBlock:`. Setting it does
    /// not report the current status.
    public var onChange: (@Sendable (ReachabilityStatus) -> Void)? {
        get { state.withLock { $0.onChange } }
        set { state.withLock { $0.onChange = newValue } }
    }

    /// Starts monitoring: opens the netlink socket and decides the status. Does nothing when
    /// already started; a stopped monitor can start again.
    /// - Throws: ``SatchelError/Code/io`` when the netlink socket cannot be opened.
    public func start() throws {
        let debounce = debounceMilliseconds
        let started = try state.withLock { state -> Bool in
            guard state.listener == nil else { return false }
            state.listener = try NetlinkListener(debounceMilliseconds: debounce) { [weak self] _ in
                self?.scheduleEvaluation()
            }
            state.generation &+= 1
            return true
        }
        if started { scheduleEvaluation() }
    }

    /// Stops monitoring: closes the netlink socket (before returning) and sets the status to
    /// ``ReachabilityStatus/unknown``. Subscribers of ``updates`` stay subscribed and hear from a
    /// later ``start()``. Does nothing when not started.
    public func stop() {
        let listener = state.withLock { state -> NetlinkListener? in
            guard let listener = state.listener else { return nil }
            state.listener = nil
            state.generation &+= 1
            publish(.unknown, in: &state)
            return listener
        }
        listener?.cancel()
    }

    /// Queues an evaluation unless one is already waiting to run.
    private func scheduleEvaluation() {
        let shouldQueue = state.withLock { state -> Bool in
            guard state.listener != nil, !state.isEvaluationQueued else { return false }
            state.isEvaluationQueued = true
            return true
        }
        guard shouldQueue else { return }
        let host = host
        let table = routingTable
        evaluationQueue.async { [weak self] in
            guard let generation = self?.beginEvaluation() else { return }
            let outcome = Result { try ReachabilityProbe.status(host: host, table: table) }
            self?.finishEvaluation(outcome, generation: generation)
        }
    }

    /// Marks the queued evaluation as running; the generation it belongs to, or `nil` when stopped.
    private func beginEvaluation() -> UInt64? {
        state.withLock { state in
            state.isEvaluationQueued = false
            return state.listener == nil ? nil : state.generation
        }
    }

    private func finishEvaluation(_ outcome: Result<ReachabilityStatus, any Error>, generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation, state.listener != nil else { return }
            state.evaluations &+= 1
            switch outcome {
            case .success(let status):
                state.lastError = nil
                publish(status, in: &state)
            case .failure(let error):
                state.lastError =
                    error as? SatchelError ?? SatchelError(.internal, "reachability evaluation failed: \(error)")
                publish(.unknown, in: &state)
            }
        }
    }

    /// Records `status` and tells subscribers and the callback, if it differs from the current
    /// one. Runs under the lock, so every subscriber sees the statuses in the same order.
    func publish(_ status: ReachabilityStatus, in state: inout State) {
        guard state.status != status else { return }
        state.status = status
        for subscriber in state.subscribers.values { subscriber.yield(status) }
        if let onChange = state.onChange { callbackQueue.async { onChange(status) } }
    }
}
