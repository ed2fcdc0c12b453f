// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Hands over the parts of a multipart body as records as they complete (see
/// ``MultipartResponseSerializer/makeRecordReader(contentType:limits:)``).
final class MultipartRecordReader: RecordReader {
    private let parts: MultipartPartReader

    init(_ parts: MultipartPartReader) {
        self.parts = parts
    }

    func feed(_ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError)
    {
        try parts.feed(chunk) { (part) throws(SatchelError) in try deliver(part.record) }
    }

    func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        try parts.finish { (part) throws(SatchelError) in try deliver(part.record) }
    }
}
