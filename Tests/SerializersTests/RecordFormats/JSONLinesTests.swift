// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// JSON Lines / NDJSON: one JSON text per line, fed whole, byte by byte and split at every
/// position.
@Suite struct JSONLinesTests {
    func lines(_ text: String, limits: Limits = .default) -> (records: [Value], error: SatchelError?) {
        RecordStreamTestSupport.agreeingRecords({ JSONLinesReader(limits: limits) }, text)
    }

    @Test func linesEndWithLFOrCRLFAndALastLineNeedsNoLineEnd() {
        let read = lines("{\"a\":1}\n{\"a\":2}\r\n\n  \t\r\n[3]")
        #expect(read.error == nil)
        #expect(read.records == [["a": 1], ["a": 2], [3]])
        #expect(lines("\u{FEFF}{\"a\":1}\n").records == [["a": 1]])
        #expect(lines("").records.isEmpty && lines("\n\n").records.isEmpty)
        #expect(lines("\"a\\u0041\"\n1.5\nnull").records == ["aA", 1.5, .null])
    }

    @Test func anInvalidLineNamesItsLineAfterTheRecordsBeforeIt() throws {
        let read = lines("{\"a\":1}\n\n{oops}\n{\"a\":3}\n")
        #expect(read.records == [["a": 1]])
        let error = try #require(read.error)
        #expect(error.code == .syntaxError)
        #expect(error.message.hasPrefix("line 3: "))
        #expect(error.line == 3 && (error.offset ?? 0) >= 9 && (error.offset ?? 0) < 15)
        let truncated = lines("{\"a\":1}\n{\"a\":")
        #expect(truncated.records == [["a": 1]] && truncated.error?.message.hasPrefix("line 2") == true)
        #expect(lines("1 2\n").error != nil)  // two texts on one line
    }

    /// Found by the `json-lines` fuzz target: a line ending in two CRs before its LF, split
    /// between them, lost both (the CR before the LF was dropped twice).
    @Test func onlyOneCarriageReturnBeforeTheLineFeedIsDropped() {
        let read = lines("\r\r\":1\r\r\n2\n")
        #expect(read.records.isEmpty && read.error?.code == .syntaxError)  // a raw CR inside the string
        #expect(lines("\"a\"\r\r\n").error?.code == nil)  // CR is whitespace after the string
        #expect(lines("\"a\"\r\r\n").records == ["a"])
    }

    @Test func limitsApplyPerLineAndToTheCount() {
        var limits = Limits()
        limits.maxRecordBytes = 8
        let long = lines("[1]\n[1,2,3,4,5,6]\n", limits: limits)
        #expect(long.records == [[1]] && long.error?.limit == "maxRecordBytes")
        limits = Limits()
        limits.maxRecords = 2
        let many = lines("1\n2\n3\n", limits: limits)
        #expect(many.records == [1, 2] && many.error?.limit == "maxRecords")
        limits = Limits()
        limits.maxDepth = 2
        #expect(lines("[[[1]]]\n", limits: limits).error?.limit == "maxDepth")
    }

    struct Entry: Decodable, Equatable {
        var level: String
        var n: Int
    }

    /// Lines decoded straight into a model, at every split, with errors naming the line and the
    /// key path.
    @Test func linesDecodeIntoModels() throws {
        let text = Array("{\"level\":\"info\",\"n\":1}\r\n\n{\"n\":2,\"level\":\"warn\"}".utf8)
        for split in 0...text.count {
            let reader = JSONLinesReader()
            var entries: [Entry] = []
            try reader.feed(Array(text[..<split]), as: Entry.self) { entries.append($0) }
            try reader.feed(Array(text[split...]), as: Entry.self) { entries.append($0) }
            try reader.finish(as: Entry.self) { entries.append($0) }
            #expect(entries == [Entry(level: "info", n: 1), Entry(level: "warn", n: 2)])
        }
        let reader = JSONLinesReader()
        var entries: [Entry] = []
        do {
            try reader.feed(Array("{\"level\":\"a\",\"n\":1}\n{\"level\":\"b\",\"n\":\"x\"}\n".utf8), as: Entry.self) {
                entries.append($0)
            }
            Issue.record("a string is not an Int")
        } catch {
            #expect(entries == [Entry(level: "a", n: 1)])
            #expect(error.code == .typeMismatch && error.line == 2 && error.keyPath == "$.n")
            #expect(error.message.hasPrefix("line 2: "))
        }
    }

    @Test func theStandardRegistryReadsEveryJSONLinesType() throws {
        let registry = Registry.standard()
        for subtype in ["jsonl", "x-ndjson", "jsonlines", "x-jsonlines"] {
            let value = try registry.decode(
                Array("1\n2\n".utf8), contentType: MediaType(type: "application", subtype: subtype))
            #expect(value == [1, 2])
        }
    }
}
