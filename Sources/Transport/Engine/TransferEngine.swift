// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import Dispatch
import Glibc
import SerializerRegistry
import Synchronization

/// One libcurl multi handle and the thread that drives it: every transfer of a session runs
/// here, many at once, sharing connections, DNS and cookies.
///
/// Other threads talk to the engine only through ``enqueue(_:)``: a command goes on a locked
/// queue and `curl_multi_wakeup` interrupts `curl_multi_poll`. The multi handle, the easy
/// handles and the running transfers are touched only by the engine thread.
final class TransferEngine: @unchecked Sendable {
    // @unchecked: `multi`, `running` and `idleHandles` are confined to the engine
    // thread (see the type's documentation); `queue` is a Mutex.

    enum Command {
        case start(Transfer)
        /// Sets the multi handle's connection limits.
        case limit(ConnectionLimits)
        case cancel(Transfer, SatchelError)
        case resume(Transfer)
        case shutdown
    }

    private let multi: UnsafeMutableRawPointer
    /// The cookie stores whose shares the transfers use (a session made anew on the engine can
    /// bring another). Held until the engine is gone, so a share outlives every easy handle
    /// attached to it.
    private let cookieStores: Mutex<[CookieStore]>
    /// The sessions using the engine: the last one to go shuts it down.
    private let users = Atomic<Int>(0)
    private struct Queue {
        var commands: [Command] = []
        /// Set by the shutdown command: later commands are refused.
        var isClosed = false
    }

    private let queue = Mutex(Queue())
    /// Callers between taking a place in ``queue`` and returning from `curl_multi_wakeup`: the
    /// multi handle is cleaned up only once this is back to zero (see ``enqueue(_:)``).
    private let wakersInFlight = Atomic<Int>(0)
    /// Signalled once the engine thread has released libcurl's handles.
    private let stopped = DispatchSemaphore(value: 0)
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
        guard CurlGlobal.initialised == CURLE_OK, let multi = curl_multi_init() else {
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

    /// Hands a command to the engine thread and wakes it. After shutdown, a transfer that
    /// would start ends at once with ``SatchelError/Code/cancelled``.
    func enqueue(_ command: Command) {
        let outcome = queue.withLock { queue -> (accepted: Bool, wakes: Bool) in
            guard !queue.isClosed else { return (false, false) }
            // A queue that already held commands was woken for them and the engine has not
            // taken them yet: the pending wakeup makes its next poll return, and it takes the
            // whole batch, this command included (one write to libcurl's wakeup pipe per
            // batch instead of per command).
            let wakes = queue.commands.isEmpty
            queue.commands.append(command)
            if case .shutdown = command { queue.isClosed = true }
            // Counted under the lock, before a shutdown can close the queue: the engine waits
            // for the count to drain before it cleans up the multi handle.
            if wakes { wakersInFlight.add(1, ordering: .relaxed) }
            return (true, wakes)
        }
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

    /// The engine loop: run commands, let libcurl move data, finish completed transfers, wait.
    private func run() {
        var active: Int32 = 0
        while true {
            let batch = queue.withLock { queue in
                let batch = queue.commands
                queue.commands.removeAll(keepingCapacity: true)
                return batch
            }
            for command in batch {
                if case .shutdown = command {
                    stop()
                    return
                }
                execute(command)
            }
            curl_multi_perform(multi, &active)
            collectFinished()
            var timeout = 1000
            curl_multi_timeout(multi, &timeout)
            if timeout < 0 || timeout > 1000 { timeout = 1000 }
            if timeout > 0 { curl_multi_poll(multi, nil, 0, Int32(timeout), nil) }
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
            let handle = fitting.map { idleHandles.remove(at: $0) } ?? EasyHandle()
            guard let handle else {
                return transfer.abandon(SatchelError(.internal, "libcurl could not create an easy handle"))
            }
            do {
                try transfer.configure(handle)
            } catch {
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
        case let .cancel(transfer, error):
            guard let handle = transfer.handle, running[handle.raw] != nil else {
                if !transfer.isFinished { transfer.cancelledBeforeStart = error }
                return
            }
            end(transfer, handle: handle, code: CURLE_ABORTED_BY_CALLBACK, failure: error)
        case let .limit(limits):
            Self.apply(limits, to: multi)
        case let .resume(transfer):
            guard transfer.isPaused, let handle = transfer.handle, running[handle.raw] != nil else { return }
            transfer.isPaused = false
            curl_easy_pause(handle.raw, CURLPAUSE_CONT)
        case .shutdown:
            break
        }
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
