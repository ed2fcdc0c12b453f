// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// The incremental decoder of ``JSONResponseSerializer``: a ``JSONIncrementalReader``, unless the
/// body is UTF-16 or UTF-32 (its Content-Type or byte order mark says so). Such a body is
/// collected and decoded whole, transcoded as ``JSONResponseSerializer/decode(_:contentType:limits:)``
/// does, so a streamed body and a whole one give the same value or the same error.
final class JSONBodyReader: IncrementalReader {
    private static let wideCharsets: Set<Charset> = [
        .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian,
    ]
    private static let wideMarks = wideCharsets.compactMap(\.byteOrderMark)

    private let serializer: JSONResponseSerializer
    private let contentType: MediaType?
    private let limits: Limits
    private let reader: JSONIncrementalReader
    /// The first bytes, held until they rule a wide byte order mark in or out (at most 4).
    private var head: [UInt8] = []
    /// The body so far, once it is known to be UTF-16 or UTF-32.
    private var wideBody: [UInt8]?
    /// Whether the bytes go straight to `reader`.
    private var isStreaming = false

    init(serializer: JSONResponseSerializer, contentType: MediaType?, limits: Limits, reader: JSONIncrementalReader) {
        self.serializer = serializer
        self.contentType = contentType
        self.limits = limits
        self.reader = reader
        if let declared = contentType?.charset.flatMap(Charset.init(name:)), Self.wideCharsets.contains(declared) {
            wideBody = []
        }
    }

    func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        if isStreaming {
            try reader.feed(chunk)
        } else if wideBody != nil {
            try limits.checkBody(count: (wideBody?.count ?? 0) + chunk.count)
            wideBody?.append(contentsOf: chunk)
        } else {
            head.append(contentsOf: chunk)
            try settle(atEnd: false)
        }
    }

    func finish() throws(SatchelError) -> Value? {
        if !isStreaming && wideBody == nil { try settle(atEnd: true) }
        if let wideBody { return try serializer.decode(wideBody, contentType: contentType, limits: limits) }
        return try reader.finish()
    }

    /// Decides from `head` whether the body is wide; waits while a longer mark could still match
    /// (`FF FE` starts both UTF-16LE's and UTF-32LE's).
    private func settle(atEnd: Bool) throws(SatchelError) {
        let couldBeWide = Self.wideMarks.contains { $0.starts(with: head.prefix($0.count)) }
        if !atEnd && head.count < 4 && couldBeWide { return }
        if let mark = Charset.byteOrderMark(of: head), Self.wideCharsets.contains(mark) {
            wideBody = head
        } else {
            isStreaming = true
            try reader.feed(head)
        }
        head = []
    }
}
