// SPDX-License-Identifier: Apache-2.0
import Glibc

/// An IPv4 or IPv6 address a host name resolved to.
struct ResolvedAddress: Hashable, Sendable, CustomStringConvertible {
    /// `AF_INET` or `AF_INET6`.
    var family: Int32
    /// The address in network byte order: 4 or 16 bytes.
    var bytes: [UInt8]
    /// The IPv6 scope (interface index) of a link-local address, 0 otherwise.
    var scopeID: UInt32

    /// The address in a `sockaddr_in` or `sockaddr_in6`, or `nil` for another family.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            family = AF_INET
            bytes = withUnsafeBytes(of: ipv4.sin_addr) { Array($0) }
            scopeID = 0
        case AF_INET6:
            let ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            family = AF_INET6
            bytes = withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) }
            scopeID = ipv6.sin6_scope_id
        default:
            return nil
        }
    }

    /// The address's bit length: 32 or 128.
    var bitLength: UInt8 { family == AF_INET ? 32 : 128 }

    /// `"192.0.2.1"`, `"fe80::1%2"`.
    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return "?" }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return scopeID == 0 ? address : "\(address)%\(scopeID)"
    }
}
