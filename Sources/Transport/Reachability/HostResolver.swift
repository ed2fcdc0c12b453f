// SPDX-License-Identifier: Apache-2.0
import Glibc
import SerializerRegistry

/// Checks host names and resolves them with `getaddrinfo` (so `/etc/hosts`, DNS and whatever
/// else nsswitch.conf names take part, as for any connection).
enum HostResolver {
    /// The longest host accepted, in UTF-8 bytes: a DNS name's 253, with room for an IPv6
    /// literal's zone.
    static let maximumLength = 253

    /// `host` as `getaddrinfo` wants it: an IPv6 literal's brackets (`[::1]`, as in a URL) removed.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an empty or over-long host, one with
    ///   control characters, spaces or a NUL, URL syntax (`/`, `?`, `#`, `@`), or unbalanced brackets.
    static func validated(_ host: String) throws -> String {
        var name = Substring(host)
        if name.hasPrefix("[") && name.hasSuffix("]") && name.count >= 2 { name = name.dropFirst().dropLast() }
        guard !name.isEmpty else { throw SatchelError(.invalidArgument, "the host name is empty") }
        guard name.utf8.count <= maximumLength else {
            throw SatchelError(
                .invalidArgument, "the host name is \(name.utf8.count) bytes long; at most \(maximumLength) are allowed"
            )
        }
        for (offset, byte) in name.utf8.enumerated() {
            switch byte {
            case 0...0x20, 0x7F:
                throw SatchelError(
                    .invalidArgument,
                    "the host name contains a control character or space (byte 0x\(String(byte, radix: 16)))",
                    offset: offset)
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"),
                UInt8(ascii: "["), UInt8(ascii: "]"):
                throw SatchelError(
                    .invalidArgument,
                    "the host name contains '\(Character(Unicode.Scalar(byte)))'; pass a host, not a URL",
                    offset: offset)
            default:
                continue
            }
        }
        return String(name)
    }

    /// The IPv4 and IPv6 addresses `host` resolves to, in `getaddrinfo`'s order without
    /// repeats; empty when the name does not resolve (`EAI_NONAME`, `EAI_AGAIN`, `EAI_FAIL`, …).
    ///
    /// Blocks for as long as the resolver does (its own timeouts, resolv.conf's `timeout` and
    /// `attempts`); the monitor calls it off its netlink queue.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a host ``validated(_:)`` rejects;
    ///   ``SatchelError/Code/internal`` when the resolver runs out of memory.
    static func addresses(of host: String) throws -> [ResolvedAddress] {
        let name = try validated(host)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        if status == EAI_MEMORY {
            throw SatchelError(.internal, "getaddrinfo ran out of memory resolving \(name)")
        }
        guard status == 0 else { return [] }
        var addresses: [ResolvedAddress] = []
        var entry = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr, let address = ResolvedAddress(socketAddress),
                !addresses.contains(address)
            {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
