// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads one large JSON document as it arrives and hands over the elements of the array at a
/// ``JSONPointer`` as records, each as soon as its last byte has arrived: memory is bounded by
/// the largest element, not by the document (what `ijson` does for Python).
///
/// `""` reads a top-level array (`[{…},{…},…]`), `/data/items` one inside an envelope
/// (`{"data":{"items":[…]},"next":"…"}`). Once the body has ended, ``rest`` is the document
/// with that array left empty: the envelope's `next` cursors and totals.
///
/// The document is read as strictly as ``JSONReader`` reads one: each element by the element
/// decoders, the rest by a strict reader as it arrives. Errors:
/// - the pointer's value is not an array: ``SatchelError/Code/typeMismatch``, as soon as it is
///   seen;
/// - the pointer matches nothing: ``SatchelError/Code/valueNotFound`` at the end;
/// - a malformed element: the elements before it are handed over, then the error names the
///   element (`/data/items/41: …`) and its byte offset in the document;
/// - an element past ``Limits/maxRecordBytes`` or nested past ``Limits/maxDepth``, more than
///   ``Limits/maxRecords`` elements, or a rest of the document past ``Limits/maxRecordBytes``:
///   ``SatchelError/Code/limitExceeded``.
///
/// ```swift
/// let reader = try JSONElementReader(pointer: JSONPointer("/data/items"))
/// for chunk in chunks {
///     try reader.feed(chunk, as: Order.self) { order in print(order.id) }
/// }
/// try reader.finish(as: Order.self) { order in print(order.id) }
/// print(reader.rest?["next"] ?? "no next page")
/// ```
public final class JSONElementReader: ElementRecordReader {
    /// Where the array is.
    public let pointer: JSONPointer
    /// Records handed over so far.
    public private(set) var recordCount = 0
    /// The document without the array's elements (the array left as `[]`), once the body has
    /// ended; `nil` before.
    public private(set) var rest: Value?

    /// Finds the elements; only ``feed(_:_:_:)`` touches it (its segments are taken while it
    /// scans).
    private var scanner: JSONElementScanner
    private let limits: Limits
    /// Validates the rest of the document as it arrives, and builds ``rest``.
    private let envelope: JSONIncrementalReader
    private var envelopeCount = 0
    /// Where the rest's offsets jump over the arrays' elements: from `envelopeOffset` on, a
    /// document offset is `shift` more.
    private var shifts: [(envelopeOffset: Int, shift: Int)] = [(0, 0)]
    private let values: JSONIncrementalReader
    private let models: JSONModelDecoder
    /// Whole elements of the current chunk not yet decoded.
    private var pending: [Element] = []
    /// An element begun in an earlier chunk.
    private var carry: [UInt8] = []
    /// The pending elements as one array text, decoded at once.
    private var batch: [UInt8] = []
    private var failure: SatchelError?
    /// Pending elements are decoded together once they span this many bytes (and at the end of
    /// each chunk): one decoder set-up per batch instead of per element.
    static let batchBytes = 64 * 1024

    private struct Element {
        var range: Range<Int>
        var index: Int
        var offset: Int
    }

    /// How records are made from the elements' text.
    private struct Decoding<Record> {
        /// Decodes `[e1,e2,…]` into the elements' records.
        var batch: (UnsafeRawBufferPointer) throws(SatchelError) -> [Record]
        /// Decodes one element's text.
        var one: (UnsafeRawBufferPointer) throws(SatchelError) -> Record
    }

    /// Creates a reader of the array at `pointer`; elements are read with `options` (a scalar
    /// element is a record whatever ``JSONReadingOptions/allowsTopLevelScalars`` says) and
    /// bounded by `limits`.
    public init(
        pointer: JSONPointer, options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default
    ) {
        self.pointer = pointer
        scanner = JSONElementScanner(pointer: pointer, limits: limits)
        self.limits = limits
        var envelopeLimits = limits
        envelopeLimits.maxBodyBytes = limits.maxRecordBytes
        envelope = JSONIncrementalReader(options: options, limits: envelopeLimits)
        var elementOptions = options
        elementOptions.allowsTopLevelScalars = true
        var elementLimits = limits
        elementLimits.maxDepth = limits.maxDepth + 1  // a batch is an array around the elements
        elementLimits.maxBodyBytes = .max  // each element is bounded by maxRecordBytes
        values = JSONIncrementalReader(options: elementOptions, limits: elementLimits)
        models = JSONModelDecoder(options: elementOptions, limits: elementLimits)
    }

    public func feed(
        _ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try feed(chunk, valueDecoding, deliver)
    }

    public func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        try finish()
    }

    /// Feeds the next chunk, decoding every element it completes into a `T` for `deliver`.
    /// - Throws: ``SatchelError``: see the type's documentation; where `T` does not fit, with
    ///   the element and the key path; what `deliver` throws.
    public func feed<T: Decodable>(
        _ chunk: UnsafeRawBufferPointer, as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        let models = models
        let decoding = Decoding<T>(
            batch: { (text) throws(SatchelError) in try models.decode([T].self, from: text) },
            one: { (text) throws(SatchelError) in try models.decode(T.self, from: text) })
        try feed(chunk, decoding, deliver)
    }

    /// Ends the body: every element was handed over as it completed, so this checks that the
    /// document is whole and the pointer matched, and makes ``rest``.
    public func finish<T: Decodable>(
        as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try finish()
    }

    private var valueDecoding: Decoding<Value> {
        let values = values
        return Decoding(
            batch: { (text) throws(SatchelError) in
                guard case let .array(elements) = try values.readDocument(text) else {
                    throw SatchelError(.internal, "a batch of elements did not read as an array")
                }
                return elements
            },
            one: { (text) throws(SatchelError) in try values.readDocument(text) })
    }

    private func feed<Record>(
        _ chunk: UnsafeRawBufferPointer, _ decoding: Decoding<Record>, _ deliver: (Record) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        if let failure { throw failure }
        let bytes = chunk.bindMemory(to: UInt8.self)
        let chunkOffset = scanner.consumed
        do throws(SatchelError) {
            var segmentFailed = false
            do throws(SatchelError) {
                try scanner.scan(bytes) { (segment) throws(SatchelError) in
                    do throws(SatchelError) {
                        try take(segment, bytes, chunkOffset, decoding, deliver)
                    } catch {
                        segmentFailed = true
                        throw error
                    }
                }
            } catch {
                // The scanner's own error comes after the elements already found.
                if !segmentFailed { try flush(bytes, chunkOffset, decoding, deliver) }
                throw error
            }
            try flush(bytes, chunkOffset, decoding, deliver)
        } catch {
            pending.removeAll()
            failure = error
            throw error
        }
    }

    private func take<Record>(
        _ segment: JSONElementScanner.Segment, _ bytes: UnsafeBufferPointer<UInt8>, _ chunkOffset: Int,
        _ decoding: Decoding<Record>, _ deliver: (Record) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        switch segment {
        case let .envelope(range):
            try flush(bytes, chunkOffset, decoding, deliver)
            try feedEnvelope(UnsafeBufferPointer(rebasing: bytes[range]), at: chunkOffset + range.lowerBound)
        case let .element(range, .whole, index, offset):
            pending.append(Element(range: range, index: index, offset: offset))
            if range.upperBound - pending[0].range.lowerBound >= Self.batchBytes {
                try flush(bytes, chunkOffset, decoding, deliver)
            }
        case let .element(range, .first, _, _):
            try flush(bytes, chunkOffset, decoding, deliver)
            carry.removeAll(keepingCapacity: true)
            carry.append(contentsOf: bytes[range])
        case let .element(range, .middle, _, _):
            carry.append(contentsOf: bytes[range])
        case let .element(range, .last, index, offset):
            carry.append(contentsOf: bytes[range])
            let record = try carry.withUnsafeBytes { text in
                Result { () throws(SatchelError) in try decodeOne(text, index: index, offset: offset, decoding) }
            }.get()
            if carry.count > 1 << 20 { carry = [] }  // a large element's buffer is not kept
            try hand(record, index: index, offset: offset, deliver)
        }
    }

    /// Decodes the pending elements and hands their records over, in order.
    private func flush<Record>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ chunkOffset: Int, _ decoding: Decoding<Record>,
        _ deliver: (Record) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        guard let first = pending.first, let last = pending.last else { return }
        let elements = pending
        pending.removeAll(keepingCapacity: true)
        batch.removeAll(keepingCapacity: true)
        batch.append(UInt8(ascii: "["))
        batch.append(contentsOf: bytes[first.range.lowerBound..<last.range.upperBound])
        batch.append(UInt8(ascii: "]"))
        let records = batch.withUnsafeBytes { (text) -> [Record]? in try? decoding.batch(text) }
        if let records, records.count == elements.count {
            for (element, record) in zip(elements, records) {
                try hand(record, index: element.index, offset: element.offset, deliver)
            }
            return
        }
        // A bad element (or null elements dropped by removesKeysWithNullValues): one at a time,
        // so the records before it are handed over and the error names it.
        for element in elements {
            let record = try decodeOne(
                UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[element.range])), index: element.index,
                offset: element.offset,
                decoding)
            try hand(record, index: element.index, offset: element.offset, deliver)
        }
    }

    private func decodeOne<Record>(
        _ text: UnsafeRawBufferPointer, index: Int, offset: Int, _ decoding: Decoding<Record>
    ) throws(SatchelError) -> Record {
        do throws(SatchelError) {
            return try decoding.one(text)
        } catch {
            var located = error.located(inRecord: pointer.appending(index: index), startingAt: offset)
            located.line = nil
            located.column = nil
            throw located
        }
    }

    private func hand<Record>(
        _ record: Record, index: Int, offset: Int, _ deliver: (Record) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        guard recordCount < limits.maxRecords else {
            throw SatchelError.limitExceeded(
                "maxRecords", limits.maxRecords, pointer.appending(index: index), offset: offset)
        }
        recordCount += 1
        try deliver(record)
    }

    private func feedEnvelope(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(SatchelError) {
        guard envelopeCount + bytes.count <= limits.maxRecordBytes else {
            let outside = pointer.description.isEmpty ? "the array" : pointer.description
            throw SatchelError.limitExceeded(
                "maxRecordBytes", limits.maxRecordBytes,
                "the document outside \(outside)",
                offset: offset + limits.maxRecordBytes - envelopeCount)
        }
        if offset - envelopeCount != shifts[shifts.count - 1].shift {
            shifts.append((envelopeCount, offset - envelopeCount))
        }
        envelopeCount += bytes.count
        do throws(SatchelError) {
            try envelope.feed(UnsafeRawBufferPointer(bytes))
        } catch {
            throw locate(envelopeError: error)
        }
    }

    private func finish() throws(SatchelError) {
        if let failure { throw failure }
        do throws(SatchelError) {
            try scanner.finish()
            do throws(SatchelError) {
                rest = try envelope.finish()
            } catch {
                throw locate(envelopeError: error)
            }
            guard scanner.matches > 0 else {
                throw SatchelError(
                    .valueNotFound, "JSON Pointer \"\(pointer)\" matches nothing in the document",
                    offset: scanner.consumed)
            }
        } catch {
            rest = nil
            failure = error
            throw error
        }
    }

    /// An error of the rest's reader, with its offset in the document.
    private func locate(envelopeError error: SatchelError) -> SatchelError {
        guard let offset = error.offset, shifts.count > 1 else { return error }
        var located = error
        let shift = shifts.last { $0.envelopeOffset <= offset }?.shift ?? 0
        located.offset = offset + shift
        if shift != 0 {
            located.line = nil
            located.column = nil
        }
        return located
    }
}
