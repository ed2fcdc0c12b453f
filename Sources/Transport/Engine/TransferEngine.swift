// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import Dispatch
import Glibc
import SerializerRegistry
import Synchronization

/// One libcurl multi handle and the threads that drive it: every transfer of a session runs
/// here, many at once, sharing connections, DNS and cookies.
///
/// One thread at a time holds the *wheel* and drives the multi handle: the engine's own thread,
/// or a caller's thread that found nobody driving and leads its own transfer
/// (``start(_:leading:)``): a request alone on its session then runs on the thread that asked
/// for it, with no hand-off to the engine thread and back (one context switch per request
/// instead of three). The leader gives the wheel to the engine thread as soon as another
/// transfer runs beside its own, or after ``leadBudget``, so a caller's thread is never held
/// long.
///
/// Other threads talk to the driver only through ``enqueue(_:)``: a command goes on a locked
/// queue and `curl_multi_wakeup` interrupts `curl_multi_poll` (or the idle engine thread is
/// given the wheel). The multi handle, the easy handles and the running transfers are touched
/// only by the thread holding the wheel.
final class TransferEngine: @unchecked Sendable {
    // @unchecked: `multi`, `running` and `idleHandles` are touched only by the thread holding
    // the wheel (see the type's documentation), which is handed over under `queue`'s lock, so
    // each holder sees what the previous one did; `queue` is a Mutex.

    /// What the engine is asked to do, queued for the thread holding the wheel.
    ///
    /// Every payload is one class reference. A multi-payload enum whose payloads differ in size
    /// leaves the bytes past a small payload undefined, and copying and switching on such a
    /// command made valgrind report uninitialised reads in every C program that sent a request
    /// (issue 42). Build commands with ``start(_:)``, ``limit(_:)``, ``cancel(_:_:)``,
    /// ``resume(_:)`` and ``shutdown``.
    enum Command {
        case start(Transfer)
        /// Sets the multi handle's connection limits.
        case setLimits(LimitsOrder)
        case cancelTransfer(CancelOrder)
        case resume(Transfer)
        case shutdown

        static func limit(_ limits: ConnectionLimits) -> Command { .setLimits(LimitsOrder(limits: limits)) }

        static func cancel(_ transfer: Transfer, _ reason: SatchelError) -> Command {
            .cancelTransfer(CancelOrder(transfer: transfer, reason: reason))
        }

        /// The limits of a ``setLimits(_:)`` command.
        final class LimitsOrder: Sendable {
            let limits: ConnectionLimits
            init(limits: ConnectionLimits) { self.limits = limits }
        }

        /// The transfer and reason of a ``cancelTransfer(_:)`` command.
        final class CancelOrder: Sendable {
            let transfer: Transfer
            let reason: SatchelError
            init(transfer: Transfer, reason: SatchelError) {
                self.transfer = transfer
                self.reason = reason
            }
        }
    }

    private let multi: UnsafeMutableRawPointer
    /// The cookie stores whose shares the transfers use (a session made anew on the engine can
    /// bring another). Held until the engine is gone, so a share outlives every easy handle
    /// attached to it.
    private let cookieStores: Mutex<[CookieStore]>
    /// The sessions using the engine: the last one to go shuts it down.
    private let users = Atomic<Int>(0)
    /// Who drives the multi handle.
    enum Wheel {
        /// Nobody: no transfer runs and no command waits; the engine thread sleeps.
        case idle
        /// The engine thread.
        case engine
        /// A caller's thread, leading its own transfer.
        case caller
    }

    private struct Queue {
        var commands: [Command] = []
        /// Set by the shutdown command: later commands are refused.
        var isClosed = false
        var wheel = Wheel.idle
    }

    private let queue = Mutex(Queue())
    /// Callers between taking a place in ``queue`` and returning from `curl_multi_wakeup`: the
    /// multi handle is cleaned up only once this is back to zero (see ``enqueue(_:)``).
    private let wakersInFlight = Atomic<Int>(0)
    /// Signalled once the engine thread has released libcurl's handles.
    private let stopped = DispatchSemaphore(value: 0)
    /// Signalled once each time the wheel goes from nobody to the engine thread.
    private let engineWake = DispatchSemaphore(value: 0)
    /// The longest a caller's thread leads its transfer before it hands the wheel to the engine
    /// thread: a thread of Swift's cooperative pool is blocked while it leads.
    static let leadBudget = Duration.milliseconds(5)
    /// The requests collected in memory between their send and their decoded response
    /// (``Session/result(for:)``), of every session on the engine.
    let requestsInProgress = Atomic<Int>(0)
    /// How many transfers a caller's thread led (for the tests and the measurements).
    let ledTransfers = Atomic<Int>(0)
    /// How many easy handles the engine made (the others were reused; for the tests).
    let handlesMade = Atomic<Int>(0)
    /// Whether callers may lead (`SATCHEL_ENGINE_CALLERS_LEAD=0` turns it off, to measure the
    /// engine thread alone beside it: scripts/measure-engine-hops).
    static let callersLead = getenv("SATCHEL_ENGINE_CALLERS_LEAD").map { String(cString: $0) != "0" } ?? true
    /// The engine thread until a shutdown joins or detaches it (exactly one of them does).
    private let thread = Mutex<pthread_t?>(nil)
    /// The async shutdowns waiting for the handles to be released, or `nil` once they are.
    private let stopWaiters = Mutex<[CheckedContinuation<Void, Never>]?>([])
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    private var idleHandles: [EasyHandle] = []
    private static let idleHandleLimit = 64

    /// The connection limits of the multi handle: `nil` for libcurl's defaults.
    struct ConnectionLimits {
        var perHost: Int?
        var total: Int?
        var cacheSize: Int?
    }

    /// Starts the engine thread, using `cookieStore`'s share (see ``adopt(_:)`` for more) and
    /// the connection `limits`.
    /// - Throws: ``SatchelError/Code/internal`` when libcurl or the thread cannot be set up.
    init(cookieStore: CookieStore, limits: ConnectionLimits = ConnectionLimits()) throws(SatchelError) {
        guard CurlGlobal.initialised == CURLE_OK else {
            let reason = String(cString: curl_easy_strerror(CurlGlobal.initialised))
            throw SatchelError(.internal, "libcurl could not be initialised: \(reason)")
        }
        guard let multi = curl_multi_init() else {
            throw SatchelError(.internal, "libcurl could not create a multi handle")
        }
        self.multi = multi
        cookieStores = Mutex([cookieStore])
        _ = satchel_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        Self.apply(limits, to: multi)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                let engine = Unmanaged<TransferEngine>.fromOpaque(context!).takeRetainedValue()
                engine.run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<TransferEngine>.fromOpaque(context).release()
            curl_multi_cleanup(multi)
            throw SatchelError(.internal, "cannot start the transfer thread (error \(status))")
        }
        self.thread.withLock { $0 = thread }
    }

    /// Hands a command to the thread driving the multi handle and wakes it (the engine thread
    /// when nobody drives). After shutdown, a transfer that would start ends at once with
    /// ``SatchelError/Code/cancelled``.
    func enqueue(_ command: Command) {
        let outcome = queue.withLock { queue -> (accepted: Bool, wakes: Bool, handsWheel: Bool) in
            guard !queue.isClosed else { return (false, false, false) }
            // A queue that already held commands was woken for them and the driver has not
            // taken them yet: the pending wakeup makes its next poll return, and it takes the
            // whole batch, this command included (one write to libcurl's wakeup pipe per
            // batch instead of per command). Nobody polls while nobody drives: the engine
            // thread is given the wheel instead, and takes the batch first.
            let handsWheel = queue.wheel == .idle
            let wakes = queue.commands.isEmpty && !handsWheel
            queue.commands.append(command)
            if case .shutdown = command { queue.isClosed = true }
            if handsWheel { queue.wheel = .engine }
            // Counted under the lock, before a shutdown can close the queue: the engine waits
            // for the count to drain before it cleans up the multi handle.
            if wakes { wakersInFlight.add(1, ordering: .relaxed) }
            return (true, wakes, handsWheel)
        }
        if outcome.handsWheel { engineWake.signal() }
        if outcome.wakes {
            // Woken outside the lock: the engine, woken at once, takes its batch under the
            // lock, and would otherwise wait for this thread to leave the write system call
            // (spinning, then sleeping in the kernel).
            curl_multi_wakeup(multi)
            wakersInFlight.subtract(1, ordering: .releasing)
        }
        if !outcome.accepted {
            if case let .start(transfer) = command {
                transfer.abandon(SatchelError(.cancelled, "\(transfer.options.url): the session was shut down"))
            }
        }
    }

    /// Starts `transfer`. When `leading`, no other request is in progress and nobody drives the
    /// multi handle, the calling thread takes the wheel and drives libcurl until its transfer
    /// has ended, ``leadBudget`` has passed or another transfer has started beside it, then
    /// gives the wheel to the engine thread if transfers remain (else to nobody); otherwise the
    /// transfer is queued for the driver, as ``enqueue(_:)`` does.
    ///
    /// A request alone has nothing else to do while it waits, so waiting on its own thread
    /// saves the two hand-offs; beside other requests (being decoded on the pool, say) the
    /// thread is worth more to them, and the engine thread drives.
    ///
    /// Lead only with a transfer whose callbacks never wait for another task: a body read
    /// from memory or a file, a response collected in memory.
    func start(_ transfer: Transfer, leading: Bool) {
        let leads =
            leading && Self.callersLead && requestsInProgress.load(ordering: .relaxed) <= 1
            && queue.withLock { queue -> Bool in
                guard !queue.isClosed, queue.wheel == .idle else { return false }
                queue.wheel = .caller
                queue.commands.append(.start(transfer))
                return true
            }
        guard leads else { return enqueue(.start(transfer)) }
        ledTransfers.add(1, ordering: .relaxed)
        drive(until: transfer)
    }

    /// Drives the multi handle on the calling thread, which holds the wheel, until `transfer`
    /// has ended, ``leadBudget`` has passed, another transfer runs or a shutdown is queued;
    /// then hands the wheel on.
    private func drive(until transfer: Transfer) {
        let deadline = ContinuousClock.now + Self.leadBudget
        var active: Int32 = 0
        while true {
            // A queued shutdown is the engine thread's to run: it joins nothing and outlives
            // every transfer.
            guard let batch = takeCommands(unlessClosed: true) else { break }
            for command in batch { execute(command) }
            curl_multi_perform(multi, &active)
            collectFinished()
            // Others' transfers are the engine thread's to drive, beside the callers' threads
            // that decode (the leader would hold a thread of the pool for them).
            let left = deadline - .now
            if transfer.isFinished || left <= .zero || running.count > 1 { break }
            poll(atMost: Int(left.wholeMilliseconds) + 1)
        }
        let wakesEngine = queue.withLock { queue -> Bool in
            queue.wheel = running.isEmpty && queue.commands.isEmpty ? .idle : .engine
            return queue.wheel == .engine
        }
        if wakesEngine { engineWake.signal() }
    }

    /// The queued commands, taken; `nil` (and nothing taken) when `unlessClosed` and a shutdown
    /// is queued.
    private func takeCommands(unlessClosed: Bool) -> [Command]? {
        queue.withLock { queue in
            if unlessClosed && queue.isClosed { return nil }
            defer { queue.commands.removeAll(keepingCapacity: true) }
            return queue.commands
        }
    }

    /// Waits in `curl_multi_poll` for the sockets, libcurl's next timer or a wakeup, for
    /// `limit` milliseconds at most.
    private func poll(atMost limit: Int) {
        var timeout = limit
        curl_multi_timeout(multi, &timeout)
        if timeout < 0 || timeout > limit { timeout = limit }
        if timeout > 0 { curl_multi_poll(multi, nil, 0, Int32(timeout), nil) }
    }

    /// Counts a session that uses the engine, keeping its cookie store alive with it.
    func adopt(_ store: CookieStore) {
        users.add(1, ordering: .relaxed)
        cookieStores.withLock { stores in
            if !stores.contains(where: { $0 === store }) { stores.append(store) }
        }
    }

    /// Uncounts a session; the last one shuts the engine down (without waiting).
    func release() {
        if users.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { shutDown(waiting: false) }
    }

    /// Sets the connection limits on `multi` (`nil`s: libcurl's defaults).
    private static func apply(_ limits: ConnectionLimits, to multi: UnsafeMutableRawPointer) {
        for (option, value) in [
            (CURLMOPT_MAX_HOST_CONNECTIONS, limits.perHost), (CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.total),
            (CURLMOPT_MAXCONNECTS, limits.cacheSize),
        ] {
            _ = satchel_curl_multi_setopt_long(multi, option, value ?? 0)
        }
    }

    /// Stops the engine: running transfers end with ``SatchelError/Code/cancelled`` and the
    /// thread releases libcurl's handles.
    ///
    /// - Parameter waiting: Whether to block until the handles are released. Never wait on
    ///   the engine thread itself (from a progress callback).
    ///
    /// The first waiting call joins the thread, so everything it releases as it ends — OpenSSL's
    /// per-thread random generators, libcurl's cached CA store — is gone when this returns (a
    /// host process may exit at once and check for leaks). Other waiters wait for the handles.
    func shutDown(waiting: Bool) {
        enqueue(.shutdown)
        let engineThread = thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        guard waiting else {
            if let engineThread { pthread_detach(engineThread) }
            return
        }
        if let engineThread {
            pthread_join(engineThread, nil)
        } else {
            stopped.wait()
            stopped.signal()  // lets another waiter through
        }
    }

    /// Stops the engine as ``shutDown(waiting:)`` does and returns once the engine thread has
    /// released libcurl's handles, without blocking a thread: the engine thread resumes the
    /// caller as it stops, and ends detached (its per-thread state goes as it exits, just after).
    func shutDown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = stopWaiters.withLock { waiters in
                waiters?.append(continuation)
                return waiters != nil
            }
            guard waiting else { return continuation.resume() }
            shutDown(waiting: false)
        }
    }

    /// The engine thread: wait for the wheel, then run commands, let libcurl move data, finish
    /// completed transfers and wait on the sockets, until no transfer runs and no command waits.
    private func run() {
        var active: Int32 = 0
        while true {
            engineWake.wait()
            while true {
                for command in takeCommands(unlessClosed: false) ?? [] {
                    if case .shutdown = command {
                        stop()
                        return
                    }
                    execute(command)
                }
                curl_multi_perform(multi, &active)
                collectFinished()
                if running.isEmpty {
                    let idle = queue.withLock { queue -> Bool in
                        guard queue.commands.isEmpty else { return false }
                        queue.wheel = .idle
                        return true
                    }
                    if idle { break }
                    continue
                }
                poll(atMost: 1000)
            }
        }
    }

    private func execute(_ command: Command) {
        switch command {
        case let .start(transfer):
            if let error = transfer.cancelledBeforeStart { return transfer.abandon(error) }
            // libcurl refuses another buffer size on a used handle: take one whose size fits, or
            // a new one.
            let wanted = transfer.options.bufferSize
            let fitting = idleHandles.lastIndex { $0.bufferSize == wanted }
            func configure(_ handle: EasyHandle?) -> Result<Void, SatchelError>? {
                handle.map { handle in Result { () throws(SatchelError) in try transfer.configure(handle) } }
            }
            var handle = fitting.map { idleHandles.remove(at: $0) } ?? makeHandle()
            var configured = configure(handle)
            if fitting != nil, case .failure? = configured {
                // libcurl 7.88 can refuse even the same buffer size on a used handle (while it
                // still holds the buffer of an aborted transfer): the handle goes, a new one
                // takes the transfer.
                handle = makeHandle()
                configured = configure(handle)
            }
            guard let handle, let configured else {
                return transfer.abandon(SatchelError(.internal, "libcurl could not create an easy handle"))
            }
            if case let .failure(error) = configured {
                transfer.abandon(error)
                return recycle(handle, keepingOptions: false)
            }
            let code = curl_multi_add_handle(multi, handle.raw)
            guard code == CURLM_OK else {
                transfer.abandon(
                    SatchelError(
                        .internal, "libcurl refused the transfer: \(String(cString: curl_multi_strerror(code)))"))
                return recycle(handle, keepingOptions: false)
            }
            running[handle.raw] = transfer
            transfer.engine = self
        case let .cancelTransfer(order):
            let transfer = order.transfer
            guard let handle = transfer.handle, running[handle.raw] != nil else {
                if !transfer.isFinished { transfer.cancelledBeforeStart = order.reason }
                return
            }
            end(transfer, handle: handle, code: CURLE_ABORTED_BY_CALLBACK, failure: order.reason)
        case let .setLimits(order):
            Self.apply(order.limits, to: multi)
        case let .resume(transfer):
            guard transfer.isPaused, let handle = transfer.handle, running[handle.raw] != nil else { return }
            transfer.isPaused = false
            curl_easy_pause(handle.raw, CURLPAUSE_CONT)
        case .shutdown:
            break
        }
    }

    private func makeHandle() -> EasyHandle? {
        handlesMade.add(1, ordering: .relaxed)
        return EasyHandle()
    }

    private func collectFinished() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                let transfer = running[raw], let handle = transfer.handle
            else { continue }
            end(transfer, handle: handle, code: message.pointee.data.result, failure: nil)
        }
    }

    private func end(_ transfer: Transfer, handle: EasyHandle, code: CURLcode, failure: SatchelError?) {
        curl_multi_remove_handle(multi, handle.raw)
        running[handle.raw] = nil
        if let failure { transfer.fail(failure) }
        transfer.finish(code: code)
        transfer.handle = nil
        recycle(handle, keepingOptions: code == CURLE_OK && transfer.failure == nil && !transfer.hasPaused)
    }

    /// Keeps `handle` for a later transfer: with its shared options (see
    /// ``Transfer/SharedOptions``) after an attempt that ended well, else reset.
    private func recycle(_ handle: EasyHandle, keepingOptions: Bool) {
        guard idleHandles.count < Self.idleHandleLimit else { return }
        if !keepingOptions || handle.sharedOptions == nil { handle.reset() }
        idleHandles.append(handle)
    }

    /// Ends every running transfer as cancelled and releases libcurl's handles.
    private func stop() {
        for (_, transfer) in running {
            if let handle = transfer.handle {
                end(
                    transfer, handle: handle, code: CURLE_ABORTED_BY_CALLBACK,
                    failure: SatchelError(.cancelled, "\(transfer.options.url): the session was shut down"))
            }
        }
        for command in queue.withLock({ $0.commands }) {
            if case let .start(transfer) = command {
                transfer.abandon(SatchelError(.cancelled, "\(transfer.options.url): the session was shut down"))
            }
        }
        idleHandles.removeAll()
        // The queue is closed, so no caller starts a wakeup now; one that started before may
        // still be inside `curl_multi_wakeup`.
        while wakersInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        curl_multi_cleanup(multi)
        stopped.signal()
        let waiters = stopWaiters.withLock { waiters in
            defer { waiters = nil }
            return waiters ?? []
        }
        for waiter in waiters { waiter.resume() }
    }
}
