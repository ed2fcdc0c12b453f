// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Hands over the parts of a multipart body as records as they complete (see
/// ``MultipartResponseSerializer/makeRecordReader(contentType:limits:)``).
final class MultipartRecordReader: RecordReader {
    private let parts: MultipartPartReader

    init(_ parts: MultipartPartReader) {
        self.parts = parts
    }

    func feed(_ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws -> Void) throws {
        try parts.feed(chunk) { try deliver($0.record) }
    }

    func finish(into deliver: (Value) throws -> Void) throws {
        try parts.finish { try deliver($0.record) }
    }
}
