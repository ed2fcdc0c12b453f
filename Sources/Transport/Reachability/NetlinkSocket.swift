// SPDX-License-Identifier: Apache-2.0
import CSatchelNetlink
import Glibc
import SerializerRegistry
import Synchronization

/// An `AF_NETLINK`/`NETLINK_ROUTE` socket, closed when released.
///
/// Used from one thread at a time: the reachability monitor's listener owns one, and each
/// route or link query opens its own for the length of the query. ``close()`` may come from
/// another thread (the listener's cancel handler).
final class NetlinkSocket: Sendable {
    /// The socket's file descriptor, -1 once closed.
    var descriptor: Int32 { storage.load(ordering: .acquiring) }
    private let storage: Atomic<Int32>

    /// The receive buffer's size: a dump's datagrams are at most a page or 32 KiB each.
    private static let receiveBufferSize = 64 * 1024

    /// Opens a socket subscribed to the multicast `groups` (`RTMGRP_*` bits; 0 for none).
    /// - Parameter receiveTimeoutSeconds: how long a blocking receive may wait (0 for ever);
    ///   ignored with `nonBlocking`.
    /// - Throws: ``SatchelError/Code/io`` when the socket cannot be opened or bound.
    init(groups: UInt32 = 0, nonBlocking: Bool = false, receiveTimeoutSeconds: Int = 2) throws {
        var type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let descriptor = socket(AF_NETLINK, type, NETLINK_ROUTE)
        guard descriptor >= 0 else { throw Self.error("cannot open a netlink socket") }
        storage = Atomic(descriptor)
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = groups
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
            }
        }
        guard bound == 0 else { throw Self.error("cannot bind a netlink socket to groups \(groups)") }
        if !nonBlocking && receiveTimeoutSeconds > 0 {
            var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    deinit { close() }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        let descriptor = storage.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Sends `request` to the kernel.
    /// - Throws: ``SatchelError/Code/io`` when the kernel does not take it.
    func send(_ request: NetlinkRequest) throws {
        var kernel = sockaddr_nl()
        kernel.nl_family = sa_family_t(AF_NETLINK)
        let sent = request.bytes.withUnsafeBytes { bytes in
            withUnsafePointer(to: &kernel) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_nl>.size))
                }
            }
        }
        guard sent == request.bytes.count else { throw Self.error("cannot send a netlink request") }
    }

    /// The messages of one datagram, or `nil` when none is waiting (a non-blocking socket).
    /// - Throws: ``SatchelError/Code/io`` on a receive error or timeout; `ENOBUFS` (the kernel
    ///   dropped notifications because we were slow) is reported as an error too, with that
    ///   errno in its message, so callers can treat it as "something changed".
    func receive() throws -> [NetlinkMessage]? {
        var buffer = [UInt8](repeating: 0, count: Self.receiveBufferSize)
        while true {
            let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received >= 0 {
                return buffer.withUnsafeBytes {
                    NetlinkMessage.parse(UnsafeRawBufferPointer(rebasing: $0[..<received]))
                }
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw Self.error("cannot receive from a netlink socket")
            }
        }
    }

    /// Sends `request` and collects the kernel's answer: the messages carrying `sequence` up to
    /// `NLMSG_DONE`, an `NLMSG_ERROR`, or a message that is not part of a dump.
    /// - Throws: ``SatchelError/Code/io`` when sending or receiving fails or times out.
    func exchange(_ request: NetlinkRequest, sequence: UInt32) throws -> [NetlinkMessage] {
        try send(request)
        var answer: [NetlinkMessage] = []
        while true {
            guard let messages = try receive() else { throw Self.error("no netlink answer") }
            for message in messages where message.sequence == sequence {
                answer.append(message)
                let isMulti = message.flags & UInt16(NLM_F_MULTI) != 0
                if message.type == UInt16(NLMSG_DONE) || message.type == UInt16(NLMSG_ERROR) || !isMulti {
                    return answer
                }
            }
        }
    }

    private static func error(_ what: String) -> SatchelError {
        let number = errno
        return SatchelError(.io, "\(what): \(String(cString: strerror(number))) (errno \(number))")
    }
}
