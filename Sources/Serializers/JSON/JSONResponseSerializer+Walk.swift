// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension JSONResponseSerializer {
    /// Reads a body as ``decode(buffer:contentType:limits:)`` does and hands its values to
    /// `receiver` without building a ``Value``: the text is indexed in one pass
    /// (``JSONTapeScanner``) and walked. A body to transcode from UTF-16 or UTF-32, or one the
    /// index leaves to the tree path (a byte order mark), comes back as its value instead.
    /// - Throws: the errors of ``decode(buffer:contentType:limits:)``, with the offset, line and
    ///   column; an error may come after the receiver has had the values before it.
    package func walk(
        buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits, into receiver: some JSONValueReceiver
    ) throws(SatchelError) -> JSONWalk {
        try limits.checkBody(count: buffer.count)
        if BlankBody.isBlank(buffer: buffer, ignoringWhiteSpace: true) { return .blank }
        let text = buffer.bindMemory(to: UInt8.self)
        var tape = JSONTape()
        let scanned = JSONTapeScanner(options: options, limits: limits).scan(text, into: &tape)
        guard scanned, !tape.needsLexerVerdict,
            Self.wideType(contentType: contentType, prefix: Array(buffer.prefix(4))) == nil
        else {
            // The tree path reads what the index cannot decide, and gives the precise error.
            guard let value = try decode(buffer: buffer, contentType: contentType, limits: limits) else {
                return .blank
            }
            return .value(value)
        }
        // A walk uses none of the typed decode's strategies: the decoder's defaults fill them.
        let decoder = JSONModelDecoder(options: options, limits: limits)
        let document = JSONTapeDocument(
            borrowing: text, entries: tape.entries, options: options, maxPairs: limits.maxPairs,
            strategies: JSONModelDecoder.Strategies(decoder))
        do {
            return try document.walk(into: receiver) ? .walked : .stopped
        } catch var error {
            if let offset = error.offset { error.locate(offset: offset, in: buffer) }
            throw error
        }
    }
}
