// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Bandwidth throttling for a multipart body, as AFNetworking's
/// `throttleBandwidthWithPacketSize:delay:`: each read yields at most ``packetSize`` bytes and
/// waits ``delay`` before every packet but the first of a pass.
///
/// The wait blocks the reading thread, as AFNetworking's does.
public struct MultipartThrottle: Sendable, Hashable {
    /// The most bytes one read yields.
    public let packetSize: Int
    /// The pause between two packets.
    public let delay: Duration

    /// AFNetworking's `kAFUploadStream3GSuggestedPacketSize` (16 KiB).
    public static let suggestedPacketSize = 16 * 1024

    /// AFNetworking's `kAFUploadStream3GSuggestedDelay` (0.2 seconds).
    public static let suggestedDelay = Duration.milliseconds(200)

    /// Creates a throttle.
    ///
    /// - Parameters:
    ///   - packetSize: The most bytes per read; at least 1.
    ///   - delay: The pause between packets; not negative.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a packet size below 1 or a negative delay.
    public init(packetSize: Int = suggestedPacketSize, delay: Duration = suggestedDelay) throws(SatchelError) {
        guard packetSize >= 1 else {
            throw SatchelError(.invalidArgument, "a throttle's packet size must be at least 1 byte, not \(packetSize)")
        }
        guard delay >= .zero else {
            throw SatchelError(.invalidArgument, "a throttle's delay must not be negative, not \(delay)")
        }
        self.packetSize = packetSize
        self.delay = delay
    }
}
