// SPDX-License-Identifier: Apache-2.0
import CSatchelNetlink

/// One rtnetlink message received from the kernel, copied out of the receive buffer.
struct NetlinkMessage: Sendable, Equatable {
    /// `nlmsg_type`: `NLMSG_ERROR`, `NLMSG_DONE`, `RTM_NEWROUTE`, …
    var type: UInt16
    /// `nlmsg_flags`.
    var flags: UInt16
    /// `nlmsg_seq`.
    var sequence: UInt32
    /// The bytes after the message header.
    var payload: [UInt8]

    /// The messages in `buffer`, in order. The walk stops at the first message whose length
    /// does not fit the bytes left (a truncated or hostile buffer yields the whole messages
    /// before it, never a read past its end).
    /// - Complexity: O(`buffer.count`).
    static func parse(_ buffer: UnsafeRawBufferPointer) -> [NetlinkMessage] {
        guard let base = buffer.baseAddress else { return [] }
        var messages: [NetlinkMessage] = []
        var remaining = buffer.count
        var header = base.assumingMemoryBound(to: nlmsghdr.self)
        while satchel_nlmsg_ok(header, remaining) != 0 {
            let payload = UnsafeRawBufferPointer(
                start: satchel_nlmsg_data(header), count: satchel_nlmsg_payload_length(header))
            messages.append(
                NetlinkMessage(
                    type: header.pointee.nlmsg_type, flags: header.pointee.nlmsg_flags,
                    sequence: header.pointee.nlmsg_seq, payload: Array(payload)))
            header = satchel_nlmsg_next(header, &remaining)
        }
        return messages
    }

    /// For an `NLMSG_ERROR` message: the error number (positive, such as `EHOSTUNREACH`), or 0 for
    /// an acknowledgement; `nil` for other messages and for an error message too short to say.
    var errorNumber: Int32? {
        guard type == UInt16(NLMSG_ERROR), payload.count >= MemoryLayout<Int32>.size else { return nil }
        let error = payload.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        return error == Int32.min ? Int32.max : -error
    }

    /// The fixed family header at the start of the payload (`rtmsg`, `ifinfomsg`, `ifaddrmsg`),
    /// or `nil` when the payload is shorter than it.
    func familyHeader<Header: BitwiseCopyable>(_: Header.Type) -> Header? {
        guard payload.count >= MemoryLayout<Header>.size else { return nil }
        return payload.withUnsafeBytes { $0.loadUnaligned(as: Header.self) }
    }

    /// The attributes after a family header of `Header`'s size, keyed by type (the nested and
    /// byte-order flag bits masked off); the first of repeated types wins. Malformed attributes
    /// end the walk.
    /// - Complexity: O(`payload.count`).
    func attributes<Header>(after _: Header.Type) -> [UInt16: [UInt8]] {
        let start = satchel_nlmsg_align(MemoryLayout<Header>.size)
        guard payload.count > start else { return [:] }
        var attributes: [UInt16: [UInt8]] = [:]
        payload.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var remaining = bytes.count - start
            var attribute = (base + start).assumingMemoryBound(to: rtattr.self)
            while satchel_rta_ok(attribute, remaining) != 0 {
                let type = attribute.pointee.rta_type & Self.attributeTypeMask
                if attributes[type] == nil {
                    attributes[type] = Array(
                        UnsafeRawBufferPointer(
                            start: satchel_rta_data(attribute), count: satchel_rta_payload_length(attribute)))
                }
                attribute = satchel_rta_next(attribute, &remaining)
            }
        }
        return attributes
    }

    /// `NLA_TYPE_MASK`: the attribute type without `NLA_F_NESTED` and `NLA_F_NET_BYTEORDER`.
    static let attributeTypeMask: UInt16 = 0x3FFF
}

extension [UInt8] {
    /// The first four bytes as a native-endian 32-bit value (rtnetlink's `u32` attributes), or
    /// `nil` when there are fewer.
    var netlinkUInt32: UInt32? {
        count >= 4 ? withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : nil
    }
}
