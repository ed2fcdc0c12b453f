// SPDX-License-Identifier: Apache-2.0
import CSatchelNetlink
import Testing

@testable import Transport

/// The netlink walkers on well-formed, truncated and hostile buffers: whole messages and
/// attributes come out, broken ones end the walk, nothing reads past the end.
@Suite struct NetlinkMessageTests {
    /// An RTM_NEWROUTE-shaped message with an RTA_OIF and an RTA_TABLE attribute.
    static func routeMessage(sequence: UInt32 = 7, interface: UInt32 = 3, table: UInt32 = 254) -> [UInt8] {
        var header = rtmsg()
        header.rtm_family = 2
        header.rtm_type = UInt8(RTN_UNICAST)
        var request = NetlinkRequest(type: Int(RTM_NEWROUTE), sequence: sequence, header: header)
        request.append(attribute: Int(RTA_OIF.rawValue), payload: withUnsafeBytes(of: interface) { Array($0) })
        request.append(attribute: Int(RTA_TABLE.rawValue), payload: withUnsafeBytes(of: table) { Array($0) })
        return request.bytes
    }

    static func parse(_ bytes: [UInt8]) -> [NetlinkMessage] { bytes.withUnsafeBytes { NetlinkMessage.parse($0) } }

    @Test func aBuiltRequestParsesBack() throws {
        let bytes = Self.routeMessage() + Self.routeMessage(sequence: 8, interface: 9, table: 30_001)
        let messages = Self.parse(bytes)
        try #require(messages.count == 2)
        #expect(messages.map(\.sequence) == [7, 8])
        #expect(messages[0].type == UInt16(RTM_NEWROUTE))
        #expect(messages[0].flags & UInt16(NLM_F_REQUEST) != 0)
        let attributes = messages[1].attributes(after: rtmsg.self)
        #expect(attributes[UInt16(RTA_OIF.rawValue)]?.netlinkUInt32 == 9)
        #expect(RouteLookup.defaultRoute(in: messages[1], table: 30_001)?.interfaceIndex == 9)
        #expect(RouteLookup.defaultRoute(in: messages[1], table: 254) == nil)
    }

    @Test func everyTruncationYieldsOnlyWholeMessages() {
        let one = Self.routeMessage()
        let bytes = one + Self.routeMessage(sequence: 8)
        for length in 0...bytes.count {
            let messages = Self.parse(Array(bytes.prefix(length)))
            let expected = length >= bytes.count ? 2 : length >= one.count ? 1 : 0
            #expect(messages.count == expected, "length \(length)")
        }
    }

    @Test(arguments: [UInt32(0), 1, 15, 0xFFFF_FFFF, 1 << 20])
    func hostileLengthFieldsEndTheWalk(length: UInt32) {
        var bytes = Self.routeMessage()
        withUnsafeBytes(of: length) { bytes.replaceSubrange(0..<4, with: $0) }
        #expect(Self.parse(bytes).isEmpty)
    }

    @Test(arguments: [UInt16(0), 1, 3, 0xFFFF, 200])
    func hostileAttributeLengthsEndTheAttributeWalk(attributeLength: UInt16) throws {
        var bytes = Self.routeMessage()
        // The first attribute's rta_len sits right after the 16-byte header and 12-byte rtmsg.
        withUnsafeBytes(of: attributeLength) { bytes.replaceSubrange(28..<30, with: $0) }
        let message = try #require(Self.parse(bytes).first)
        let attributes = message.attributes(after: rtmsg.self)
        // A bad first attribute ends the walk: neither it nor the good one after it comes out.
        #expect(attributes.isEmpty, "\(attributes)")
        #expect(RouteLookup.defaultRoute(in: message, table: 254) == nil)
    }

    @Test func shortPayloadsHaveNoHeaderOrError() {
        let message = NetlinkMessage(type: UInt16(NLMSG_ERROR), flags: 0, sequence: 1, payload: [1, 2])
        #expect(message.errorNumber == nil)
        #expect(message.familyHeader(rtmsg.self) == nil)
        #expect(message.attributes(after: rtmsg.self).isEmpty)
        #expect(InterfaceLookup.link(in: message) == nil)
        let error = NetlinkMessage(
            type: UInt16(NLMSG_ERROR), flags: 0, sequence: 1, payload: withUnsafeBytes(of: Int32(-113)) { Array($0) })
        #expect(error.errorNumber == 113)
    }

    @Test func changeKindsFollowMessageTypes() {
        #expect(NetlinkListener.change(of: UInt16(RTM_NEWADDR)) == .address)
        #expect(NetlinkListener.change(of: UInt16(RTM_DELLINK)) == .link)
        #expect(NetlinkListener.change(of: UInt16(RTM_NEWROUTE)) == .route)
        #expect(NetlinkListener.change(of: UInt16(NLMSG_DONE)) == nil)
    }
}
