// SPDX-License-Identifier: Apache-2.0
/// Decides a ``ReachabilityStatus`` once, synchronously: the logic behind
/// ``NetworkReachability``'s monitor and ``NetworkReachability/status(ofHost:)``.
enum ReachabilityProbe {
    /// The main routing table (`RT_TABLE_MAIN`), where the default route lives.
    static let mainTable: UInt32 = 254

    /// The status of `host`, or of the network in general when `host` is `nil`.
    ///
    /// - A host is reachable when `getaddrinfo` resolves it and the kernel has a route to one of
    ///   its addresses (tried in the resolver's order) whose output interface is up and running;
    ///   the status names that route's interface.
    /// - The network in general is reachable when routing table `table` has a unicast default
    ///   route (IPv4 `0.0.0.0/0` or IPv6 `::/0`) whose interface is up and running; the lowest
    ///   metric wins, IPv4 before IPv6.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a malformed host,
    ///   ``SatchelError/Code/io`` when netlink fails.
    static func status(host: String?, table: UInt32 = mainTable) throws -> ReachabilityStatus {
        guard let host else { return try networkStatus(table: table) }
        for address in try HostResolver.addresses(of: host) {
            guard case .interface(let index) = try RouteLookup.route(to: address),
                let link = try InterfaceLookup.link(index: index), link.isUp
            else { continue }
            return .reachable(via: link.interface)
        }
        return .notReachable
    }

    private static func networkStatus(table: UInt32) throws -> ReachabilityStatus {
        for route in try RouteLookup.defaultRoutes(table: table) {
            if let link = try InterfaceLookup.link(index: route.interfaceIndex), link.isUp {
                return .reachable(via: link.interface)
            }
        }
        return .notReachable
    }
}
