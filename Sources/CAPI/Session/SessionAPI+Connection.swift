// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Transport

// A session's connection limits, host overrides and rate limit (include/satchel.h); a request's
// own rate limit is in RequestAPI.swift.

@c @implementation
public func satchel_session_set_connection(
    _ session: OpaquePointer?, _ setting: satchel_connection_setting, _ value: UInt64
) -> satchel_status {
    guarded {
        guard value <= UInt64(Int32.max) else {
            throw SatchelError(.invalidArgument, "value: \(value) is too large")
        }
        let number = Int(value)
        try SessionHandle.from(session).configure { configuration in
            switch setting {
            case SATCHEL_CONNECTIONS_PER_HOST: configuration.maximumConnectionsPerHost = number == 0 ? nil : number
            case SATCHEL_CONNECTIONS_TOTAL: configuration.maximumConnections = number == 0 ? nil : number
            case SATCHEL_CONNECTION_CACHE: configuration.connectionCacheSize = number == 0 ? nil : number
            case SATCHEL_CONNECTION_IDLE_SECONDS:
                guard number > 0 else { throw SatchelError(.invalidArgument, "an idle time of 0 seconds") }
                configuration.idleConnectionLifetime = .seconds(number)
            case SATCHEL_EXPECT_CONTINUE: configuration.sendsExpectContinue = number != 0
            default:
                throw SatchelError(.invalidArgument, "setting: \(setting.rawValue) is not a satchel_connection_setting")
            }
        }
    }
}

@c @implementation
public func satchel_session_add_host_override(
    _ session: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ length: Int, _ connectTo: Int32
) -> satchel_status {
    guarded {
        let handle = try SessionHandle.from(session)
        guard let text = try Arguments.optionalString(text, length, "override") else {
            return try handle.configure { $0.hostOverrides = [] }
        }
        let override = connectTo != 0 ? try HostOverride(connectTo: text) : try HostOverride(resolve: text)
        try handle.configure { $0.hostOverrides.append(override) }
    }
}

@c @implementation
public func satchel_session_set_rate_limit(
    _ session: OpaquePointer?, _ upload: UInt64, _ download: UInt64
) -> satchel_status {
    guarded {
        let limit = try RateLimit(upload, download)
        try SessionHandle.from(session).configure { $0.rateLimit = limit }
    }
}

extension RateLimit {
    /// The limit C gave: bytes per second, 0 for none.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a rate too large.
    init(_ upload: UInt64, _ download: UInt64) throws(SatchelError) {
        guard upload <= UInt64(Int.max), download <= UInt64(Int.max) else {
            throw SatchelError(.invalidArgument, "a rate limit is too large")
        }
        self.init(upload: upload == 0 ? nil : Int(upload), download: download == 0 ? nil : Int(download))
    }
}
