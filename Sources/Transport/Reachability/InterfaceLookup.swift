// SPDX-License-Identifier: Apache-2.0
import CSatchelNetlink
import Glibc
import SerializerRegistry

/// Describes a network interface by index: its name and kind (`RTM_GETLINK`, sysfs), and
/// whether it is up.
enum InterfaceLookup {
    /// An interface and whether it can carry traffic.
    struct Link: Equatable, Sendable {
        /// The interface.
        var interface: ReachabilityInterface
        /// `IFF_UP` and `IFF_RUNNING` (administratively up, and the driver reports carrier).
        var isUp: Bool
    }

    // <net/if.h>'s flags; the header clashes with <linux/if.h>, and the values are kernel ABI.
    static let flagUp: UInt32 = 0x1
    static let flagLoopback: UInt32 = 0x8
    static let flagRunning: UInt32 = 0x40
    /// `ARPHRD_ETHER`.
    static let hardwareEthernet: UInt16 = 1

    /// The interface with index `index`, or `nil` when there is none (it just vanished).
    /// - Throws: ``SatchelError/Code/io`` when the netlink exchange fails.
    static func link(index: Int32) throws -> Link? {
        var header = ifinfomsg()
        header.ifi_family = UInt8(AF_UNSPEC)
        header.ifi_index = index
        let sequence = NetlinkRequest.nextSequence()
        let request = NetlinkRequest(type: Int(RTM_GETLINK), sequence: sequence, header: header)
        for message in try NetlinkSocket().exchange(request, sequence: sequence) {
            if let error = message.errorNumber {
                if error == ENODEV || error == 0 { return nil }
                throw SatchelError(
                    .io,
                    "link lookup for interface \(index) failed: \(String(cString: strerror(error))) (errno \(error))")
            }
            if let link = link(in: message) { return link }
        }
        return nil
    }

    /// The link an `RTM_NEWLINK` message describes, or `nil` for another message or one without a name.
    static func link(in message: NetlinkMessage) -> Link? {
        guard message.type == UInt16(RTM_NEWLINK), let info = message.familyHeader(ifinfomsg.self),
            let nameBytes = message.attributes(after: ifinfomsg.self)[UInt16(IFLA_IFNAME)]
        else { return nil }
        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        guard !name.isEmpty else { return nil }
        let kind: ReachabilityInterface.Kind
        if info.ifi_flags & flagLoopback != 0 {
            kind = .loopback
        } else {
            switch deviceType(of: name) {
            case "wlan": kind = .wifi
            case "wwan": kind = .cellular
            default: kind = info.ifi_type == hardwareEthernet ? .wired : .other
            }
        }
        return Link(
            interface: ReachabilityInterface(name: name, index: info.ifi_index, kind: kind),
            isUp: info.ifi_flags & (flagUp | flagRunning) == (flagUp | flagRunning))
    }

    /// The `DEVTYPE` in `/sys/class/net/<name>/uevent` (`wlan`, `wwan`, `bridge`, …), if any.
    static func deviceType(of name: String) -> String? {
        guard !name.contains("/"), name != ".", name != ".." else { return nil }
        let descriptor = open("/sys/class/net/\(name)/uevent", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("DEVTYPE=") {
            return String(line.dropFirst("DEVTYPE=".count))
        }
        return nil
    }
}
