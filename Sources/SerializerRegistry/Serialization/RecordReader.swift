// SPDX-License-Identifier: Apache-2.0
/// Reads a body that is a stream of records — Server-Sent Events, JSON Lines, JSON text
/// sequences — and hands over each record as soon as its last byte has arrived.
///
/// Fed chunks of any size, down to one byte. A malformed record ends the stream with an error;
/// the records before it have already been handed over.
///
/// ```swift
/// let reader = EventStreamResponseSerializer().makeRecordReader(contentType: nil, limits: .default)
/// try reader.feed(chunk) { event in print(event) }   // as each chunk arrives
/// try reader.finish { event in print(event) }
/// ```
public protocol RecordReader: AnyObject {
    /// Feeds the next chunk of the body, handing `deliver` every record it completes, in order.
    /// - Throws: ``SatchelError`` for a malformed record or one past the ``Limits``, or what
    ///   `deliver` throws; the records before it were delivered.
    func feed(_ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError)

    /// Ends the body, handing `deliver` the records its end completes (a last record without
    /// its terminator, where the format counts it).
    /// - Throws: ``SatchelError`` for a truncated or malformed last record, or what `deliver`
    ///   throws.
    func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError)
}

extension RecordReader {
    /// Feeds the next chunk of the body (see ``feed(_:into:)-(UnsafeRawBufferPointer,_)``).
    public func feed(_ chunk: [UInt8], into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        try chunk.withUnsafeBufferPointer { (chunk) throws(SatchelError) in
            try feed(UnsafeRawBufferPointer(chunk), into: deliver)
        }
    }
}

/// A response serializer that can read a body as a stream of records, handing each over as it
/// completes: the record streams (``RecordStreamSerializer``) and multipart bodies, whose parts
/// are records.
public protocol RecordReadingSerializer: ResponseSerializer {
    /// A reader for a body of `contentType`, obeying `limits`.
    func makeRecordReader(contentType: MediaType?, limits: Limits) -> any RecordReader
}

/// A response serializer whose bodies are streams of records (Server-Sent Events, JSON Lines,
/// JSON text sequences): a whole-body decode returns the array of records (so
/// ``Registry/decode(_:contentType:)`` and `satchel decode` need nothing else).
public protocol RecordStreamSerializer: RecordReadingSerializer {}

extension RecordStreamSerializer {
    /// Every record of a whole body, as an array.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        try limits.checkBody(count: body.count)
        var records: [Value] = []
        let reader = makeRecordReader(contentType: contentType, limits: limits)
        try reader.feed(body) { records.append($0) }
        try reader.finish { records.append($0) }
        return .array(records)
    }

    /// A reader that collects the records as the body arrives, so a large body is never held
    /// whole; its value is the array of records.
    public func makeIncrementalReader(contentType: MediaType?, limits: Limits) -> (any IncrementalReader)? {
        RecordCollector(reader: makeRecordReader(contentType: contentType, limits: limits), limits: limits)
    }
}

/// Collects a record stream's records into one array value, as the body arrives.
final class RecordCollector: IncrementalReader {
    private let reader: any RecordReader
    private let limits: Limits
    private var records: [Value] = []
    private var bytes = 0

    init(reader: any RecordReader, limits: Limits) {
        self.reader = reader
        self.limits = limits
    }

    func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        bytes += chunk.count
        try limits.checkBody(count: bytes)
        try reader.feed(chunk) { records.append($0) }
    }

    func finish() throws(SatchelError) -> Value? {
        try reader.finish { records.append($0) }
        return .array(records)
    }
}

extension SatchelError {
    /// This error, found inside one record of a stream, located in the whole body: the message
    /// starts with `label` (`line 3`, `text 2`) and the offset counts from the body's start.
    /// - Parameters:
    ///   - label: Names the record.
    ///   - offset: The body offset of the record's first byte.
    package func located(inRecord label: String, startingAt offset: Int) -> SatchelError {
        var located = naming(label)
        located.offset = offset + (self.offset ?? 0)
        return located
    }

    /// This error, found in the record `label` names (`event 3`), saying so first; where its
    /// bytes are is not known (a record decoded from a value).
    package func naming(_ label: String) -> SatchelError {
        var named = self
        named.message = "\(label): \(message)"
        return named
    }
}
