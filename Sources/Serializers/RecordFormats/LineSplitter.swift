// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a byte stream into lines as its chunks arrive, for the line-based record streams.
///
/// A line that spans chunks is kept until its end arrives; every other line is handed over in
/// place. Lines are bounded by `maxLineBytes` (``Limits/maxRecordBytes``).
struct LineSplitter {
    /// What ends a line.
    enum Terminators {
        /// LF; a CR just before it is dropped (JSON Lines: LF or CRLF).
        case lineFeed
        /// CRLF, LF or CR alone, also when the CR ends one chunk and the LF starts the next
        /// (the WHATWG event stream).
        case any
    }

    let terminators: Terminators
    let maxLineBytes: Int
    /// The bytes of a line that began in an earlier chunk.
    private var pending: [UInt8] = []
    /// Whether the last byte fed was a CR that ended a line (`.any`): an LF next belongs to it.
    private var afterCarriageReturn = false
    /// Bytes of a possible byte order mark at the very start, held until it is known.
    private var start: [UInt8]? = []
    /// Bytes fed so far (the stream offset of the next chunk).
    private(set) var consumed = 0
    /// The stream offset of the line being collected.
    private var lineStart = 0
    /// Lines completed so far.
    private(set) var lines = 0

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    init(terminators: Terminators, maxLineBytes: Int) {
        self.terminators = terminators
        self.maxLineBytes = maxLineBytes
    }

    /// Feeds a chunk; `line` gets each line it completes (without its terminator) with the
    /// line's 1-based number and the stream offset of its first byte. A UTF-8 byte order mark
    /// at the start of the stream is dropped.
    /// - Throws: ``SatchelError/Code/limitExceeded`` for a line over `maxLineBytes`; what `line`
    ///   throws.
    mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        _ line: (UnsafeBufferPointer<UInt8>, _ number: Int, _ offset: Int) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        var bytes = chunk.bindMemory(to: UInt8.self)
        if var held = start {
            // The stream's first bytes: a byte order mark is dropped; anything else is text.
            let taken = min(3 - held.count, bytes.count)
            held += bytes[0..<taken]
            if held.count < 3 && Self.byteOrderMark.starts(with: held) {
                start = held  // the chunk ended inside what may be a mark
                return
            }
            start = nil
            if held == Self.byteOrderMark {
                consumed += 3
                lineStart = consumed
                bytes = UnsafeBufferPointer(rebasing: bytes[taken...])
            } else if held.count > taken {
                // Bytes held from earlier chunks were text after all: they come first.
                let earlier = Array(held[0..<(held.count - taken)])
                try earlier.withUnsafeBufferPointer { (earlier) throws(SatchelError) in try scan(earlier, line) }
            }
        }
        try scan(bytes, line)
    }

    /// Ends the stream.
    /// - Returns: The last line when the stream did not end with a terminator (its number and
    ///   offset too), else `nil`.
    mutating func finish() -> (bytes: [UInt8], number: Int, offset: Int)? {
        if let held = start, !held.isEmpty {
            start = nil
            pending = held
        }
        guard !pending.isEmpty else { return nil }
        defer { pending = [] }
        lines += 1
        return (pending, lines, lineStart)
    }

    private mutating func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: (UnsafeBufferPointer<UInt8>, Int, Int) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        guard let base = bytes.baseAddress else { return }
        var index = 0
        if afterCarriageReturn, index < bytes.count {
            afterCarriageReturn = false
            if bytes[0] == 0x0A {
                index = 1
                lineStart = consumed + 1
            }
        }
        while index < bytes.count {
            let end = nextTerminator(base, from: index, count: bytes.count)
            guard let end else {
                try hold(UnsafeBufferPointer(rebasing: bytes[index...]))
                break
            }
            let terminator = bytes[end]
            var lineEnd = end
            if terminators == .lineFeed, lineEnd > index, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let segment = UnsafeBufferPointer(rebasing: bytes[index..<lineEnd])
            if pending.isEmpty {
                try check(segment.count)
                lines += 1
                try line(segment, lines, lineStart)
            } else {
                try hold(segment)
                // The CR before this LF ended the previous chunk.
                if terminators == .lineFeed, end == index, pending.last == 0x0D { pending.removeLast() }
                lines += 1
                try pending.withUnsafeBufferPointer { (pending) throws(SatchelError) in
                    try line(pending, lines, lineStart)
                }
                pending.removeAll(keepingCapacity: true)
            }
            index = end + 1
            if terminator == 0x0D {
                if index < bytes.count {
                    if bytes[index] == 0x0A { index += 1 }
                } else {
                    afterCarriageReturn = true
                }
            }
            lineStart = consumed + index
        }
        consumed += bytes.count
    }

    /// The index of the next line terminator at or after `from`, or `nil`.
    private func nextTerminator(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        switch terminators {
        case .lineFeed:
            guard let found = memchr(base + from, 0x0A, count - from) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        case .any:
            var index = from
            while index < count {
                let byte = base[index]
                if byte == 0x0A || byte == 0x0D { return index }
                index += 1
            }
            return nil
        }
    }

    /// Keeps the start of a line that continues in a later chunk.
    private mutating func hold(_ bytes: UnsafeBufferPointer<UInt8>) throws(SatchelError) {
        try check(pending.count + bytes.count)
        pending.append(contentsOf: bytes)
    }

    private func check(_ count: Int) throws(SatchelError) {
        guard count > maxLineBytes else { return }
        throw SatchelError.limitExceeded(
            "maxRecordBytes", maxLineBytes, "line \(lines + 1) of more than \(maxLineBytes) bytes",
            offset: lineStart + maxLineBytes)
    }
}
