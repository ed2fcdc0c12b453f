// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Testing

@testable import Serializers

/// `MultipartPartReader` and the record reader over it: each part handed over as it completes,
/// at every split position, the parts before an error, and a part the body's end completes.
struct MultipartPartReaderTests {
    let contentType = try! MediaType(parsing: "multipart/mixed; boundary=b")
    let body = Array(
        "--b\r\nContent-Type: application/json\r\n\r\n{\"n\":1}\r\n--b\r\nContent-Type: text/plain\r\n\r\ntwo\r\n--b--"
            .utf8)

    /// The standard registry (its serializers hold it weakly) and its multipart serializer,
    /// which decodes each part through it.
    let registry = Registry.standard()
    var serializer: MultipartResponseSerializer {
        registry.responseSerializer(for: MediaType(type: "multipart", subtype: "mixed")) as! MultipartResponseSerializer
    }

    func reader() -> MultipartPartReader {
        MultipartPartReader(serializer: serializer, contentType: contentType, limits: .default)
    }

    @Test func everySplitGivesTheSamePartsInOrder() throws {
        for split in 0...body.count {
            let parts = reader()
            var values: [Value] = []
            try body[..<split].withUnsafeBytes { try parts.feed($0) { values.append($0.value) } }
            try body[split...].withUnsafeBytes { try parts.feed($0) { values.append($0.value) } }
            try parts.finish { values.append($0.value) }
            #expect(values == [["n": 1], "two"], "split at \(split)")
        }
    }

    /// The first part is complete once the second delimiter line has arrived, before the body ends.
    @Test func aPartIsHandedOverBeforeTheBodyEnds() throws {
        let parts = reader()
        var names: [Value] = []
        let firstDelimiterEnd = body.indices.firstIndex { Array(body[..<$0]).suffix(8) == Array("\r\n--b\r\nC".utf8) }!
        try body[..<firstDelimiterEnd].withUnsafeBytes { try parts.feed($0) { names.append($0.value) } }
        #expect(names == [["n": 1]])
    }

    @Test func thePartsBeforeAnErrorAreHandedOver() throws {
        let records = serializer.makeRecordReader(contentType: contentType, limits: .default)
        let broken = Array(
            "--b\r\n\r\none\r\n--b\r\nContent-Disposition: form-data\r\nContent-Disposition: form-data\r\n\r\nx".utf8)
        var values: [Value] = []
        // The error is in the same chunk as the part before it.
        #expect(throws: SatchelError.self) { try records.feed(broken) { values.append($0["value"] ?? .null) } }
        #expect(values == ["one"])
    }
}
