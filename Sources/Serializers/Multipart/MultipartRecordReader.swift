import SerializerRegistry

/// Hands over the parts of a multipart body as records as they complete (see
/// ``MultipartResponseSerializer/makeRecordReader(contentType:limits:)``).
final class MultipartRecordReader: RecordReader {
    private let reader: MultipartIncrementalReader
    /// Parts completed by the chunk being fed, delivered once the parser returns.
    private var completed: [Value] = []

    init(_ reader: MultipartIncrementalReader) {
        self.reader = reader
        reader.retainsParts = false
        reader.onPart = { [unowned self] element in completed.append(element.record) }
    }

    func feed(_ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws -> Void) throws {
        defer { completed.removeAll(keepingCapacity: true) }
        do {
            try reader.feed(chunk)
        } catch {
            for record in completed { try deliver(record) }  // the parts before the error
            throw error
        }
        for record in completed { try deliver(record) }
    }

    func finish(into deliver: (Value) throws -> Void) throws {
        _ = try reader.finish()
    }
}
