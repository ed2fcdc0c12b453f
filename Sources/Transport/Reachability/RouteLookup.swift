// SPDX-License-Identifier: Apache-2.0
import CSatchelNetlink
import Glibc
import SerializerRegistry

/// Asks the kernel's routing tables over rtnetlink: where a packet to an address would go
/// (`RTM_GETROUTE`, as `ip route get` does), and which default routes exist (a route dump).
enum RouteLookup {
    /// Where the kernel would send a packet.
    enum Outcome: Equatable, Sendable {
        /// Out through the interface of this index (a unicast or local route).
        case interface(Int32)
        /// Nowhere: no route, or an `unreachable`, `blackhole`, `prohibit` or `throw` route.
        case rejected(reason: String)
    }

    /// A default route found in a dump.
    struct DefaultRoute: Equatable, Sendable {
        /// `AF_INET` or `AF_INET6`.
        var family: Int32
        /// The output interface's index.
        var interfaceIndex: Int32
        /// The route's metric (`RTA_PRIORITY`); lower wins.
        var metric: UInt32
    }

    /// Where the kernel would route a packet to `address` (with its scope as the output
    /// interface for a link-local IPv6 address).
    ///
    /// The kernel answers a lookup that ends in a reject route with an error instead of a route:
    /// `EHOSTUNREACH`/`ENETUNREACH` (no route, `unreachable`), `EACCES`/`EPERM` (`prohibit`),
    /// `EINVAL` (`blackhole`); these are ``Outcome/rejected(reason:)``.
    /// - Throws: ``SatchelError/Code/io`` when the netlink exchange itself fails.
    static func route(to address: ResolvedAddress) throws -> Outcome {
        var header = rtmsg()
        header.rtm_family = UInt8(address.family)
        header.rtm_dst_len = address.bitLength
        let sequence = NetlinkRequest.nextSequence()
        var request = NetlinkRequest(type: Int(RTM_GETROUTE), sequence: sequence, header: header)
        request.append(attribute: Int(RTA_DST.rawValue), payload: address.bytes)
        if address.scopeID != 0 {
            request.append(
                attribute: Int(RTA_OIF.rawValue), payload: withUnsafeBytes(of: address.scopeID) { Array($0) })
        }
        let answer = try NetlinkSocket().exchange(request, sequence: sequence)
        for message in answer {
            if let error = message.errorNumber {
                switch error {
                case EHOSTUNREACH, ENETUNREACH, EACCES, EPERM, EINVAL:
                    return .rejected(reason: "no route to \(address): \(String(cString: strerror(error)))")
                default:
                    throw SatchelError(
                        .io, "route lookup for \(address) failed: \(String(cString: strerror(error))) (errno \(error))")
                }
            }
            guard message.type == UInt16(RTM_NEWROUTE), let route = message.familyHeader(rtmsg.self) else { continue }
            switch Int(route.rtm_type) {
            case Int(RTN_BLACKHOLE), Int(RTN_UNREACHABLE), Int(RTN_PROHIBIT), Int(RTN_THROW):
                return .rejected(reason: "the route to \(address) is of reject type \(route.rtm_type)")
            default:
                let attributes = message.attributes(after: rtmsg.self)
                guard let index = attributes[UInt16(RTA_OIF.rawValue)]?.netlinkUInt32 else {
                    return .rejected(reason: "the route to \(address) has no output interface")
                }
                return .interface(Int32(bitPattern: index))
            }
        }
        throw SatchelError(.io, "the kernel sent no route for \(address)")
    }

    /// The unicast default routes (prefix length 0, IPv4 and IPv6) of routing table `table`,
    /// lowest metric first, IPv4 before IPv6 at equal metrics.
    /// - Throws: ``SatchelError/Code/io`` when the dump fails.
    static func defaultRoutes(table: UInt32) throws -> [DefaultRoute] {
        var header = rtmsg()
        header.rtm_family = UInt8(AF_UNSPEC)
        let sequence = NetlinkRequest.nextSequence()
        let request = NetlinkRequest(type: Int(RTM_GETROUTE), flags: NLM_F_DUMP, sequence: sequence, header: header)
        var routes: [DefaultRoute] = []
        for message in try NetlinkSocket().exchange(request, sequence: sequence) {
            if let error = message.errorNumber, error != 0 {
                throw SatchelError(.io, "the route dump failed: \(String(cString: strerror(error))) (errno \(error))")
            }
            if let route = defaultRoute(in: message, table: table) { routes.append(route) }
        }
        return routes.sorted { ($0.metric, $0.family == AF_INET ? 0 : 1) < ($1.metric, $1.family == AF_INET ? 0 : 1) }
    }

    /// The default route `message` describes, if it is a unicast one in `table` with an output
    /// interface (its own, or its first next hop's for a multipath route).
    static func defaultRoute(in message: NetlinkMessage, table: UInt32) -> DefaultRoute? {
        guard message.type == UInt16(RTM_NEWROUTE), let route = message.familyHeader(rtmsg.self),
            route.rtm_dst_len == 0, Int(route.rtm_type) == Int(RTN_UNICAST)
        else { return nil }
        let attributes = message.attributes(after: rtmsg.self)
        let routeTable = attributes[UInt16(RTA_TABLE.rawValue)]?.netlinkUInt32 ?? UInt32(route.rtm_table)
        guard routeTable == table else { return nil }
        let index: UInt32? =
            attributes[UInt16(RTA_OIF.rawValue)]?.netlinkUInt32
            ?? attributes[UInt16(RTA_MULTIPATH.rawValue)].flatMap(firstNextHopInterface)
        guard let index else { return nil }
        return DefaultRoute(
            family: Int32(route.rtm_family), interfaceIndex: Int32(bitPattern: index),
            metric: attributes[UInt16(RTA_PRIORITY.rawValue)]?.netlinkUInt32 ?? 0)
    }

    /// The interface index of the first `struct rtnexthop` in an `RTA_MULTIPATH` payload.
    private static func firstNextHopInterface(_ payload: [UInt8]) -> UInt32? {
        guard payload.count >= MemoryLayout<rtnexthop>.size else { return nil }
        let hop = payload.withUnsafeBytes { $0.loadUnaligned(as: rtnexthop.self) }
        return UInt32(bitPattern: hop.rtnh_ifindex)
    }
}
