// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Synchronization
import Transport

/// The object behind a `satchel_reachability *`: a ``NetworkReachability`` whose change callback
/// is a C function, fenced so that once ``stop()`` returns no call is running or will start.
final class ReachabilityHandle: Sendable, CHandle {
    static let parameterName = "reachability"

    let monitor: NetworkReachability
    /// The generation of the running callback (0: none); the lock is held during each call.
    private let callbackGeneration = Mutex<UInt64>(0)
    private let generations = Atomic<UInt64>(0)

    init(host: String?) throws(SatchelError) {
        do {
            monitor = try NetworkReachability(host: host)
        } catch {
            throw SatchelError.wrap(error)
        }
    }

    /// Starts the monitor with `callback` hearing each change.
    ///
    /// - Throws: `SATCHEL_E_MISUSE` when already started, `SATCHEL_E_IO` when the netlink socket
    ///   cannot be opened.
    func start(_ callback: ReachabilityCallback?) throws(SatchelError) {
        guard !monitor.isMonitoring else {
            throw SatchelError(.misuse, "the reachability monitor is already started; stop it first")
        }
        let generation = generations.add(1, ordering: .relaxed).newValue
        callbackGeneration.withLock { $0 = generation }
        if let callback { monitor.onChange = relay(to: callback, generation: generation) }
        do {
            try monitor.start()
        } catch {
            monitor.onChange = nil
            throw SatchelError.wrap(error)
        }
    }

    /// The monitor's change handler: calls `callback` while `generation` is the running one.
    private func relay(
        to callback: ReachabilityCallback, generation: UInt64
    ) -> @Sendable (ReachabilityStatus) -> Void {
        { [weak self] status in
            self?.callbackGeneration.withLock { current in
                guard current == generation else { return }
                var info = satchel_reachability_info()
                info.struct_size = UInt32(MemoryLayout<satchel_reachability_info>.size)
                info.abi_version = UInt32(SATCHEL_ABI_VERSION)
                info.fill(from: status)
                callback.function(callback.userdata, &info)
            }
        }
    }

    /// Stops the monitor; waits for a running callback and keeps queued ones from calling.
    func stop() {
        monitor.onChange = nil
        monitor.stop()
        callbackGeneration.withLock { $0 = 0 }
    }
}

/// A C reachability callback and its userdata.
struct ReachabilityCallback: @unchecked Sendable {
    // Safe to send: the header makes the caller keep `userdata` valid, and the callback callable
    // from a library thread, until the monitor is stopped (which waits for a running call).
    let function: satchel_reachability_callback
    let userdata: UnsafeMutableRawPointer?
}

extension satchel_reachability_info {
    /// Fills the status and interface from `status`; `struct_size` and `abi_version` stay.
    mutating func fill(from status: ReachabilityStatus) {
        interface_kind = SATCHEL_INTERFACE_NONE
        interface_index = 0
        interface_name = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        switch status {
        case .unknown: self.status = SATCHEL_REACHABILITY_UNKNOWN
        case .notReachable: self.status = SATCHEL_REACHABILITY_NOT_REACHABLE
        case .reachable(let interface):
            self.status = SATCHEL_REACHABILITY_REACHABLE
            interface_index = interface.index
            interface_kind =
                switch interface.kind {
                case .loopback: SATCHEL_INTERFACE_LOOPBACK
                case .wired: SATCHEL_INTERFACE_WIRED
                case .wifi: SATCHEL_INTERFACE_WIFI
                case .cellular: SATCHEL_INTERFACE_CELLULAR
                case .other: SATCHEL_INTERFACE_OTHER
                }
            withUnsafeMutableBytes(of: &interface_name) { buffer in
                let name = Array(interface.name.utf8.prefix(buffer.count - 1))
                buffer.copyBytes(from: name)
            }
        }
    }
}
