// SPDX-License-Identifier: Apache-2.0
/// Whether the network, or one host, can be reached: AFNetworkReachabilityStatus on Linux.
///
/// AFNetworking's four states map as follows: `AFNetworkReachabilityStatusUnknown` is
/// ``unknown``, `NotReachable` is ``notReachable``, and `ReachableViaWWAN` / `ReachableViaWiFi`
/// are both ``reachable(via:)``, told apart by the interface's ``ReachabilityInterface/kind``
/// (``ReachabilityInterface/Kind/cellular`` is WWAN; every other kind is what AFNetworking
/// would call WiFi, since it names any non-cellular interface so). See ``isReachableViaWWAN``.
public enum ReachabilityStatus: Hashable, Sendable, CustomStringConvertible {
    /// Not determined yet: the monitor has not been started, was stopped, or its last
    /// evaluation failed.
    case unknown
    /// No route leads there (or the host name does not resolve).
    case notReachable
    /// A route leads there through this interface.
    case reachable(via: ReachabilityInterface)

    /// Whether the status is ``reachable(via:)``.
    public var isReachable: Bool {
        if case .reachable = self { return true }
        return false
    }

    /// Whether the status is reachable through a cellular modem (AFNetworking's
    /// `ReachableViaWWAN`).
    public var isReachableViaWWAN: Bool {
        if case .reachable(let interface) = self { return interface.kind == .cellular }
        return false
    }

    /// The interface a reachable status goes through, or `nil`.
    public var interface: ReachabilityInterface? {
        if case .reachable(let interface) = self { return interface }
        return nil
    }

    /// `"unknown"`, `"not reachable"` or `"reachable via eth0 (wired)"`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .notReachable: "not reachable"
        case .reachable(let interface): "reachable via \(interface)"
        }
    }
}
