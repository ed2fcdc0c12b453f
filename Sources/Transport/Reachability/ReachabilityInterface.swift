// SPDX-License-Identifier: Apache-2.0
/// The network interface a reachable host or network is reached through.
public struct ReachabilityInterface: Hashable, Sendable, CustomStringConvertible {
    /// What kind of link an interface is, as far as Linux tells.
    public enum Kind: String, Hashable, Sendable {
        /// The loopback interface (`IFF_LOOPBACK`).
        case loopback
        /// A wireless LAN interface (sysfs `DEVTYPE=wlan`).
        case wifi
        /// A cellular modem (sysfs `DEVTYPE=wwan`): AFNetworking's WWAN.
        case cellular
        /// An Ethernet-framed interface (`ARPHRD_ETHER`) that is not wireless: wired Ethernet,
        /// but also virtual ones such as veth, bridges and bonds.
        case wired
        /// Anything else: tunnels, PPP, InfiniBand, …
        case other
    }

    /// The interface's name, such as `"eth0"`.
    public var name: String
    /// The kernel's interface index.
    public var index: Int32
    /// The interface's kind.
    public var kind: Kind

    /// Creates an interface description.
    public init(name: String, index: Int32, kind: Kind) {
        self.name = name
        self.index = index
        self.kind = kind
    }

    /// `"eth0 (wired)"`.
    public var description: String { "\(name) (\(kind.rawValue))" }
}
