// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// Feeds record streams whole, byte by byte and split at every position, and checks they agree.
enum RecordStreamTestSupport {
    /// The records (or the error) of `bytes` fed in the chunks that `splits` cut it into.
    static func records(
        _ makeReader: () -> any RecordReader, _ bytes: [UInt8], splits: [Int]
    ) -> (records: [Value], error: SatchelError?) {
        let reader = makeReader()
        var records: [Value] = []
        var start = 0
        do {
            for end in splits + [bytes.count] where end >= start {
                try reader.feed(Array(bytes[start..<end])) { records.append($0) }
                start = end
            }
            try reader.finish { records.append($0) }
            return (records, nil)
        } catch {
            return (records, error)
        }
    }

    /// The records of `bytes` fed whole; expects every split into two chunks, and byte-by-byte
    /// feeding, to give the same records and the same error code.
    static func agreeingRecords(
        _ makeReader: () -> any RecordReader, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (records: [Value], error: SatchelError?) {
        let bytes = Array(text.utf8)
        let whole = records(makeReader, bytes, splits: [])
        var ways: [[Int]] = (0...bytes.count).map { [$0] }
        ways.append(Array(0...bytes.count))  // one byte at a time
        for splits in ways {
            let split = records(makeReader, bytes, splits: splits)
            #expect(
                split.records == whole.records, "split at \(splits.count == 1 ? "\(splits[0])" : "every byte")",
                sourceLocation: sourceLocation)
            #expect(split.error?.code == whole.error?.code, sourceLocation: sourceLocation)
        }
        return whole
    }
}
