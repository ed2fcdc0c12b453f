// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A multipart body as a ``BodyStream``, made by ``MultipartFormData/makeBodyStream()``.
///
/// The stream keeps no buffer of its own: each read copies delimiters and headers (a few hundred
/// bytes per part) and reads part bodies straight into the caller's buffer, so memory is the same
/// for a 10 KB body and a 10 GB one. Files are opened when the stream reaches them and closed when
/// their part ends. ``length`` is exact when every part has a known size; a part that turns out
/// to have another size (a file that changed, a stream that ends early or runs long) fails the
/// read with a ``SatchelError`` naming the part — the stream never ends as if complete after a
/// short part, and a failed stream keeps failing until it is rewound.
public final class MultipartBodyStream: BodyStream {
    private enum Phase {
        case head, body, closing, finished
    }

    private let plan: MultipartBodyPlan

    /// The exact length of the body, or `nil` when a part's size is unknown (send it chunked).
    public let length: Int64?

    /// Called after each read that yields bytes, once for each part the read touched.
    public var progressHandler: (@Sendable (MultipartProgress) -> Void)?

    /// Limits each read to a packet size and pauses between packets; `nil` for full speed.
    public var throttle: MultipartThrottle?

    /// Whether the bytes read are hashed with SHA-256; a change after the first read takes
    /// effect at the next rewind.
    public var computesSHA256: Bool {
        didSet {
            if bytesSent == 0 { hasher = computesSHA256 ? SHA256() : nil }
        }
    }

    /// The SHA-256 digest of the whole body (32 bytes), once the last byte has been read with
    /// ``computesSHA256`` set; `nil` before, and after a rewind.
    public private(set) var sha256Digest: [UInt8]?

    /// How many bytes have been read since the start (or the last rewind).
    public private(set) var bytesSent: Int64 = 0

    private var partIndex = 0
    private var phase: Phase
    private var literalOffset = 0
    private var partSent: Int64 = 0
    private var completedPartSent: [Int64]
    private var current: (any BodyStream)?
    private var hasher: SHA256?
    private var packetsSent = 0
    private var failure: SatchelError?
    /// Bytes placed in the caller's buffer by the read in progress.
    private var filled = 0

    init(
        plan: MultipartBodyPlan, progressHandler: (@Sendable (MultipartProgress) -> Void)?,
        throttle: MultipartThrottle?, computesSHA256: Bool
    ) {
        self.plan = plan
        self.length = plan.length
        self.progressHandler = progressHandler
        self.throttle = throttle
        self.computesSHA256 = computesSHA256
        self.phase = plan.parts.isEmpty ? .closing : .head
        self.completedPartSent = Array(repeating: 0, count: plan.parts.count)
        self.hasher = computesSHA256 ? SHA256() : nil
    }

    /// Always `true`: files are reopened and stream factories called again.
    public var isRewindable: Bool { true }

    /// The number of parts.
    public var partCount: Int { plan.parts.count }

    /// The SHA-256 digest as 64 lower-case hexadecimal digits, when ``sha256Digest`` is set.
    public var sha256Hex: String? {
        sha256Digest.map { digest in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
        }
    }

    /// Reads the next bytes of the body.
    ///
    /// - Returns: From 1 to `buffer.count` bytes (at most the throttle's packet size); 0 at the
    ///   end, or for an empty buffer.
    /// - Throws: ``SatchelError`` naming the part and the byte offset in the body: the part's own
    ///   error (a file that changed size, could not be opened or read), or ``SatchelError/Code/io``
    ///   for a stream that ended before or ran past its declared length.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SatchelError) -> Int {
        if let failure { throw failure }
        guard buffer.count > 0, phase != .finished else { return 0 }
        var limit = buffer.count
        if let throttle {
            if packetsSent > 0 { Self.sleep(for: throttle.delay) }
            limit = min(limit, throttle.packetSize)
        }
        let firstPart = min(partIndex, plan.parts.count - 1)
        filled = 0
        do {
            // A part's source is any `BodyStream`, whose errors are untyped: `wrap` names the part.
            try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<limit]))
        } catch {
            let label = plan.parts.indices.contains(partIndex) ? plan.parts[partIndex].label : "the closing delimiter"
            let wrapped = Self.wrap(error, label: label, offset: Int(bytesSent) + filled)
            failure = wrapped
            throw wrapped
        }
        let produced = filled
        guard produced > 0 else { return 0 }
        bytesSent += Int64(produced)
        packetsSent += 1
        if hasher != nil {
            hasher?.update(UnsafeRawBufferPointer(rebasing: buffer[0..<produced]))
            if phase == .finished, let digest = hasher?.finalize() {
                sha256Digest = Array(digest)
            }
        }
        if let progressHandler, firstPart >= 0 {
            reportProgress(from: firstPart, to: progressHandler)
        }
        return produced
    }

    /// Starts over: releases the part being read, clears a failure, the digest and the counters.
    public func rewind() throws(SatchelError) {
        partIndex = 0
        phase = plan.parts.isEmpty ? .closing : .head
        literalOffset = 0
        partSent = 0
        for index in completedPartSent.indices { completedPartSent[index] = 0 }
        current = nil
        hasher = computesSHA256 ? SHA256() : nil
        sha256Digest = nil
        bytesSent = 0
        packetsSent = 0
        failure = nil
    }

    // MARK: - Filling

    /// Fills `buffer` from the current position, counting in ``filled``; returns early after a
    /// short read of a part's stream rather than waiting on it.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        while filled < buffer.count {
            switch phase {
            case .finished:
                return
            case .head:
                filled += copyLiteral(plan.parts[partIndex].head, into: buffer, at: filled)
                if literalOffset == plan.parts[partIndex].head.count {
                    literalOffset = 0
                    phase = .body
                }
            case .closing:
                filled += copyLiteral(plan.closing, into: buffer, at: filled)
                if literalOffset == plan.closing.count { phase = .finished }
            case .body:
                let part = plan.parts[partIndex]
                if case .bytes(let bytes) = part.source {
                    let count = min(buffer.count - filled, bytes.count - Int(partSent))
                    bytes.withUnsafeBytes { source in
                        let start = Int(partSent)
                        UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + count)])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + count)]))
                    }
                    partSent += Int64(count)
                    filled += count
                    if partSent == Int64(bytes.count) { finishPart() }
                    continue
                }
                let stream = try current ?? open(part)
                current = stream
                let space = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
                let (count, wanted) = try readBody(of: part, from: stream, into: space)
                filled += count
                if count < wanted && phase == .body { return }
            }
        }
    }

    /// Reads from a part's stream, enforcing its declared length; returns the bytes read and
    /// how many were asked for (0 and 0 when the part ended).
    private func readBody(
        of part: MultipartBodyPlan.Part, from stream: any BodyStream, into space: UnsafeMutableRawBufferPointer
    ) throws -> (count: Int, wanted: Int) {
        guard let length = part.length else {
            let count = try checked(stream.read(into: space), wanted: space.count)
            if count == 0 {
                finishPart()
                return (0, 0)
            }
            partSent += Int64(count)
            return (count, space.count)
        }
        let remaining = length - partSent
        if remaining == 0 {
            // At the declared end: one more byte, read into a scratch byte and never sent, means
            // the stream runs long.
            var scratch: UInt8 = 0
            let extra = try withUnsafeMutableBytes(of: &scratch) { try stream.read(into: $0) }
            if extra > 0 {
                throw SatchelError(.io, "the part's stream has more than its declared \(length) bytes")
            }
            finishPart()
            return (0, 0)
        }
        let wanted = Int(min(Int64(space.count), remaining))
        let count = try checked(
            stream.read(into: UnsafeMutableRawBufferPointer(rebasing: space[0..<wanted])), wanted: wanted)
        if count == 0 {
            throw SatchelError(.io, "the part's stream ended after \(partSent) of its declared \(length) bytes")
        }
        partSent += Int64(count)
        return (count, wanted)
    }

    private func checked(_ count: Int, wanted: Int) throws -> Int {
        guard count >= 0 && count <= wanted else {
            throw SatchelError(.internal, "the part's stream returned \(count) bytes for a \(wanted)-byte buffer")
        }
        return count
    }

    /// Opens the source of a part that is not in memory.
    private func open(_ part: MultipartBodyPlan.Part) throws -> any BodyStream {
        switch part.source {
        case .bytes(let bytes):
            return ByteBodyStream(bytes)
        case .file(let path, let size):
            let stream = try FileBodyStream(path: path)
            if let now = stream.length, now != size {
                throw SatchelError(.io, "\(path) changed size from \(size) to \(now) bytes after the body was built")
            }
            return stream
        case .stream(let declared, let makeStream):
            let stream = try makeStream()
            if let declared, let announced = stream.length, announced != declared {
                throw SatchelError(
                    .io, "the part's stream announces \(announced) bytes but the part declared \(declared)")
            }
            return stream
        case .nested(let plan):
            return MultipartBodyStream(plan: plan, progressHandler: nil, throttle: nil, computesSHA256: false)
        }
    }

    private func finishPart() {
        completedPartSent[partIndex] = partSent
        current = nil
        partSent = 0
        partIndex += 1
        phase = partIndex < plan.parts.count ? .head : .closing
    }

    private func copyLiteral(_ literal: [UInt8], into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        let count = min(buffer.count - offset, literal.count - literalOffset)
        literal.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[literalOffset..<(literalOffset + count)]))
        }
        literalOffset += count
        return count
    }

    // MARK: - Reporting

    private func reportProgress(from firstPart: Int, to handler: @Sendable (MultipartProgress) -> Void) {
        let lastPart = min(partIndex, plan.parts.count - 1)
        guard firstPart <= lastPart else { return }
        for index in firstPart...lastPart {
            let sent = index < partIndex ? completedPartSent[index] : partSent
            handler(
                MultipartProgress(
                    partIndex: index, partBytesSent: sent, partBytesTotal: plan.parts[index].length,
                    bytesSent: bytesSent, bytesTotal: length))
        }
    }

    /// `error` with the part's label before its message and the offset in this body.
    static func wrap(_ error: any Error, label: String, offset: Int?) -> SatchelError {
        guard var wrapped = error as? SatchelError else {
            return SatchelError(.io, "\(label): the part's source failed", offset: offset, underlying: error)
        }
        wrapped.message = "\(label): \(wrapped.message)"
        if let offset {
            wrapped.offset = offset
            wrapped.line = nil
            wrapped.column = nil
        }
        return wrapped
    }

    private static func sleep(for delay: Duration) {
        let (seconds, attoseconds) = delay.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
