// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// Server-Sent Events as the WHATWG standard's event stream interpretation reads them, fed whole,
/// byte by byte and split at every position.
@Suite struct EventStreamTests {
    static func event(_ data: String, type: String = "message", id: String = "") -> Value {
        ServerSentEvent(type: type, data: data, lastEventID: id).value
    }

    func events(_ text: String, limits: Limits = .default) -> (records: [Value], error: SatchelError?) {
        RecordStreamTestSupport.agreeingRecords(
            { EventStreamResponseSerializer().makeRecordReader(contentType: nil, limits: limits) }, text)
    }

    @Test func theStandardsExamples() {
        #expect(events("data: YHOO\ndata: +2\ndata: 10\n\n").records == [Self.event("YHOO\n+2\n10")])
        let second = events(
            ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n")
        #expect(
            second.records == [
                Self.event("first event", id: "1"), Self.event("second event"), Self.event(" third event"),
            ])
        #expect(events("data\n\ndata\ndata\n\ndata:").records == [Self.event(""), Self.event("\n")])
        #expect(events("data:test\n\ndata: test\n\n").records == [Self.event("test"), Self.event("test")])
    }

    @Test func lineEndsAreCRLFOrLFOrCRAlone() {
        #expect(
            events("data: a\r\rdata: b\r\n\r\ndata: c\n\r\n").records == [
                Self.event("a"), Self.event("b"), Self.event("c"),
            ])
        #expect(events("data: a\r\n\r\n").records == [Self.event("a")])  // not a blank line between CR and LF
    }

    @Test func aByteOrderMarkIsDroppedOnlyAtTheStart() {
        let text = "\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n"
        #expect(events(text).records == [Self.event("a")])  // the second line's field is "\u{FEFF}data"
        #expect(events("\u{FEFF}\u{FEFF}data: a\n\n").records.isEmpty)
        #expect(events("\u{FEC0}data: a\n\ndata: b\n\n").records == [Self.event("b")])  // EF BB 80: not a mark
    }

    @Test func typesIDsAndRetry() {
        let text = "event: add\ndata: 1\nid: 7\n\ndata: 2\n\nid: a\u{0}b\ndata: 3\n\nid\ndata: 4\n\n"
        #expect(
            events(text).records == [
                Self.event("1", type: "add", id: "7"), Self.event("2", id: "7"), Self.event("3", id: "7"),
                Self.event("4"),
            ])
        var parser = ServerSentEventParser()
        try? parser.feed(Array("retry: 12a\nretry:\n: x\n".utf8)) { _ in }
        #expect(parser.reconnectionTime == nil)
        try? parser.feed(Array("retry: 3000\nid: 9\n\n".utf8)) { _ in }
        #expect(parser.reconnectionTime == .seconds(3))
        #expect(parser.lastEventID == "9")  // set at the blank line even without data
        #expect(parser.eventCount == 0)
    }

    @Test func fieldsWithoutAColonUnknownFieldsAndAnUnterminatedLastEvent() {
        #expect(events("data\nfoo: bar\nevent\n\n").records == [Self.event("")])
        #expect(events("data: kept\n\ndata: lost\n").records == [Self.event("kept")])
        #expect(events("data: lost").records.isEmpty)
        // Names of a field's length that are not it, and the fields in another case, are ignored.
        let nearMisses = "date: a\nDATA: b\nevenT: c\nretrx: 1\nrEtry: 2\nib: d\nID: e\nd: f\ndata: g\n\n"
        #expect(events(nearMisses).records == [Self.event("g")])
        var parser = ServerSentEventParser()
        try? parser.feed(Array("retrx: 5\nRETRY: 5\n\n".utf8)) { _ in }
        #expect(parser.reconnectionTime == nil)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        let reader = EventStreamResponseSerializer().makeRecordReader(contentType: nil, limits: .default)
        var records: [Value] = []
        #expect(throws: Never.self) {
            try reader.feed([0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0x0A, 0x0A]) { records.append($0) }
        }
        #expect(records == [Self.event("\u{FFFD}")])
    }

    @Test func recordsOverTheLimitsAreErrors() {
        var limits = Limits()
        limits.maxRecordBytes = 16
        let long = events("data: 0123456789abcdefghij\n\n", limits: limits)
        #expect(long.error?.code == .limitExceeded && long.error?.limit == "maxRecordBytes")
        let joined = events("data: 0123456\ndata: 0123456\ndata: 0123456\n\n", limits: limits)
        #expect(joined.error?.limit == "maxRecordBytes")
        limits = Limits()
        limits.maxRecords = 1
        let many = events("data: 1\n\ndata: 2\n\n", limits: limits)
        #expect(many.records == [Self.event("1")] && many.error?.limit == "maxRecords")
    }

    @Test func theStandardRegistryReadsEventStreamsAsRecords() throws {
        let type = MediaType(
            type: "text", subtype: "event-stream", parameters: [.init(name: "charset", value: "utf-8")])
        let value = try Registry.standard().decode(Array("data: a\n\nevent: b\ndata: c\n\n".utf8), contentType: type)
        #expect(value == .array([Self.event("a"), Self.event("c", type: "b")]))
    }
}
