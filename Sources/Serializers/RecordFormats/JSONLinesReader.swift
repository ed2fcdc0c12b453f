// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads a JSON Lines (NDJSON) body as it arrives: one JSON text per line, each handed over as
/// a record as soon as its line ends.
///
/// Lines end with LF or CRLF; a last line without its line end is a record; a UTF-8 byte order
/// mark at the start is dropped. Blank lines (nothing but spaces, tabs or a CR) are skipped, as
/// the NDJSON specification allows and as senders that end with an extra newline need. A line
/// that is not one JSON text is an error naming its line (`line 3`), with the byte offset in the
/// body; the records before it have been handed over.
///
/// ``feed(_:as:into:)-([UInt8],_,_)`` decodes each line straight into a `Decodable` instead, without a
/// ``Value`` in between:
///
/// ```swift
/// let reader = JSONLinesReader()
/// try reader.feed(chunk, as: LogEntry.self) { entry in print(entry.message) }
/// try reader.finish(as: LogEntry.self) { entry in print(entry.message) }
/// ```
public final class JSONLinesReader: RecordReader {
    private var lines: LineSplitter
    /// Reads each line from an index of its text (a ``Value`` too: no json-c tree in between),
    /// reusing the index's storage from line to line.
    private let modelDecoder: JSONModelDecoder
    private let limits: Limits
    /// Records handed over so far.
    public private(set) var recordCount = 0

    /// Creates a reader; each line is read with `options` and `limits` (depth, strings, members),
    /// lines are bounded by ``Limits/maxRecordBytes`` and their number by ``Limits/maxRecords``.
    public init(options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default) {
        lines = LineSplitter(terminators: .lineFeed, maxLineBytes: limits.maxRecordBytes)
        modelDecoder = JSONModelDecoder(options: options, limits: limits)
        self.limits = limits
    }

    // A line's `Value` is read as any `Decodable` is: the model decoder's fast path for `Value`
    // builds it from the index of the line.
    public func feed(
        _ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try feed(chunk, as: Value.self, into: deliver)
    }

    public func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        try finish(as: Value.self, into: deliver)
    }

    /// Feeds the next chunk, decoding every line it completes into a `T` for `deliver`.
    /// - Throws: ``SatchelError``: a line that is not JSON (`line N`), or where `T` does not fit
    ///   (with the key path); a line past the limits; what `deliver` throws.
    public func feed<T: Decodable>(
        _ chunk: UnsafeRawBufferPointer, as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try lines.feed(chunk) { (line, number, offset) throws(SatchelError) in
            try record(
                line, number: number, offset: offset,
                read: { (line) throws(SatchelError) in try modelDecoder.decode(type, from: line) }, deliver)
        }
    }

    /// Feeds the next chunk (see ``feed(_:as:into:)-(UnsafeRawBufferPointer,_,_)``).
    public func feed<T: Decodable>(
        _ chunk: [UInt8], as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try chunk.withUnsafeBufferPointer { (chunk) throws(SatchelError) in
            try feed(UnsafeRawBufferPointer(chunk), as: type, into: deliver)
        }
    }

    /// Ends the body, decoding a last line without its line end into a `T`.
    public func finish<T: Decodable>(
        as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        guard let last = lines.finish() else { return }
        try last.bytes.withUnsafeBufferPointer { (line) throws(SatchelError) in
            try record(
                line, number: last.number, offset: last.offset,
                read: { (line) throws(SatchelError) in try modelDecoder.decode(type, from: line) }, deliver)
        }
    }

    /// Reads one line with `read`, unless it is blank, and hands the record over.
    private func record<Record>(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, offset: Int,
        read: (UnsafeRawBufferPointer) throws(SatchelError) -> Record, _ deliver: (Record) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        guard recordCount < limits.maxRecords else {
            throw SatchelError.limitExceeded("maxRecords", limits.maxRecords, "line \(number)", offset: offset)
        }
        let record: Record
        do {
            record = try read(UnsafeRawBufferPointer(line))
        } catch {
            throw Self.locate(error, line: number, offset: offset)
        }
        recordCount += 1
        try deliver(record)
    }

    /// `error`, found in the line `number` that starts at `offset`, located in the whole body
    /// (with the line and the column within it).
    static func locate(_ error: SatchelError, line number: Int, offset: Int) -> SatchelError {
        var located = error.located(inRecord: "line \(number)", startingAt: offset)
        located.line = number
        located.column = (error.offset ?? 0) + 1
        return located
    }
}
