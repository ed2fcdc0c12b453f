// SPDX-License-Identifier: Apache-2.0
/// Why a ``FixtureServer`` could not start.
public enum FixtureServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another socket is bound to the address (`EADDRINUSE`).
    case addressInUse(host: String, port: Int)
    /// The address could not be bound or listened on for another reason.
    case cannotListen(host: String, port: Int, reason: String)
    /// The TLS identity could not be generated or written.
    case tlsSetup(String)
    /// The configuration is unusable (a port outside 0…65535, say).
    case invalidConfiguration(String)

    /// One line saying what failed.
    public var description: String {
        switch self {
        case let .addressInUse(host, port): "cannot listen on \(Self.place(host, port)): address already in use"
        case let .cannotListen(host, port, reason): "cannot listen on \(Self.place(host, port)): \(reason)"
        case let .tlsSetup(reason): "cannot set up TLS: \(reason)"
        case let .invalidConfiguration(reason): "invalid server configuration: \(reason)"
        }
    }

    /// `host:port`, or a unix socket's `unix:PATH` (whose port is 0).
    private static func place(_ host: String, _ port: Int) -> String {
        host.hasPrefix("unix:") ? host : "\(host):\(port)"
    }
}
