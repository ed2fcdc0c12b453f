// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Transport

// Reachability of the network or a host (include/satchel.h, "Reachability").

@c @implementation
public func satchel_reachability_check(
    _ info: UnsafeMutablePointer<satchel_reachability_info>?, _ host: UnsafePointer<CChar>?, _ hostLength: Int
) -> satchel_status {
    guarded {
        let info = try Arguments.versioned(info, "info")
        let host = try Arguments.optionalString(host, hostLength, "host")
        do {
            info.pointee.fill(from: try NetworkReachability.status(ofHost: host))
        } catch {
            throw SatchelError.wrap(error)
        }
    }
}

@c @implementation
public func satchel_reachability_create(
    _ outReachability: UnsafeMutablePointer<OpaquePointer?>?, _ host: UnsafePointer<CChar>?, _ hostLength: Int
) -> satchel_status {
    outReachability?.pointee = nil
    return guarded {
        let out = try Arguments.required(outReachability, "out_reachability")
        let host = try Arguments.optionalString(host, hostLength, "host")
        out.pointee = try ReachabilityHandle(host: host).retainedPointer
    }
}

@c @implementation
public func satchel_reachability_start(
    _ reachability: OpaquePointer?, _ onChange: satchel_reachability_callback?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    guarded {
        try ReachabilityHandle.from(reachability).start(
            onChange.map { ReachabilityCallback(function: $0, userdata: userdata) })
    }
}

@c @implementation
public func satchel_reachability_current(
    _ info: UnsafeMutablePointer<satchel_reachability_info>?, _ reachability: OpaquePointer?
) -> satchel_status {
    guarded {
        let info = try Arguments.versioned(info, "info")
        info.pointee.fill(from: try ReachabilityHandle.from(reachability).monitor.status)
    }
}

@c @implementation
public func satchel_reachability_stop(_ reachability: OpaquePointer?) {
    (try? ReachabilityHandle.from(reachability))?.stop()
}

@c @implementation
public func satchel_reachability_free(_ reachability: OpaquePointer?) {
    satchel_reachability_stop(reachability)
    ReachabilityHandle.release(reachability)
}
