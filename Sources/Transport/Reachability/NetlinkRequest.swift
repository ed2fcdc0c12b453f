// SPDX-License-Identifier: Apache-2.0
import CSatchelNetlink
import Synchronization

/// An rtnetlink request being built: a message header, a family header, then attributes.
struct NetlinkRequest {
    /// The message's bytes; the header's length field is kept up to date.
    private(set) var bytes: [UInt8]

    /// Starts a request of `type` (`RTM_GETROUTE`, …) with `flags` (`NLM_F_REQUEST` is added) and
    /// the family header `header`.
    init<Header: BitwiseCopyable>(type: Int, flags: Int32 = 0, sequence: UInt32, header: Header) {
        var messageHeader = nlmsghdr()
        messageHeader.nlmsg_type = UInt16(truncatingIfNeeded: type)
        messageHeader.nlmsg_flags = UInt16(truncatingIfNeeded: flags | NLM_F_REQUEST)
        messageHeader.nlmsg_seq = sequence
        bytes = withUnsafeBytes(of: messageHeader) { Array($0) }
        bytes += withUnsafeBytes(of: header) { Array($0) }
        pad(to: satchel_nlmsg_align(bytes.count))
        updateLength()
    }

    /// Appends an attribute of `type` carrying `payload`.
    mutating func append(attribute type: Int, payload: [UInt8]) {
        var attribute = rtattr()
        attribute.rta_type = UInt16(truncatingIfNeeded: type)
        attribute.rta_len = UInt16(truncatingIfNeeded: satchel_rta_length(payload.count))
        bytes += withUnsafeBytes(of: attribute) { Array($0) }
        bytes += payload
        pad(to: satchel_nlmsg_align(bytes.count))
        updateLength()
    }

    /// A fresh sequence number for a request. Each query has its own socket, so uniqueness only
    /// guards against stray answers.
    static func nextSequence() -> UInt32 { sequenceCounter.wrappingAdd(1, ordering: .relaxed).oldValue }

    private static let sequenceCounter = Atomic<UInt32>(1)

    private mutating func pad(to length: Int) {
        if bytes.count < length { bytes += [UInt8](repeating: 0, count: length - bytes.count) }
    }

    private mutating func updateLength() {
        withUnsafeBytes(of: UInt32(bytes.count)) { length in
            bytes.replaceSubrange(0..<4, with: length)
        }
    }
}
