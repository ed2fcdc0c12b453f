// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// JSON text sequences (RFC 7464), fed whole, byte by byte and split at every position.
@Suite struct JSONTextSequenceTests {
    func texts(_ text: String, limits: Limits = .default) -> (records: [Value], error: SatchelError?) {
        RecordStreamTestSupport.agreeingRecords({ JSONTextSequenceReader(limits: limits) }, text)
    }

    @Test func eachTextFollowsAnRecordSeparator() {
        let read = texts("\u{1E}{\"a\":1}\n\u{1E}[2]\n\u{1E}\u{1E}\u{1E} \n\u{1E}3\n\u{1E}\"x\"")
        #expect(read.error == nil)
        #expect(read.records == [["a": 1], [2], 3, "x"])
        #expect(texts("\n \u{1E}true\n").records == [true])  // whitespace before the first RS
    }

    @Test func aNumberOrLiteralWithoutWhitespaceAfterItMayBeTruncated() throws {
        let read = texts("\u{1E}{\"a\":1}\n\u{1E}12")
        #expect(read.records == [["a": 1]])
        #expect(read.error?.code == .truncatedInput && read.error?.message.hasPrefix("text 2") == true)
        #expect(texts("\u{1E}12\u{1E}3\n").error?.code == .truncatedInput)
        #expect(texts("\u{1E}{\"a\":1}").records == [["a": 1]])  // self-delimiting
    }

    /// A text is handed over at the LF after a complete value (it need not wait for the next
    /// RS); line feeds inside a text, in strings or between tokens, do not end it.
    @Test func aTextEndsAtTheLineFeedAfterACompleteValue() {
        #expect(
            texts("\u{1E}{\n \"a\": [1,\n2],\n \"s\": \"x\\\"]}\\n\"\n}\n").records == [["a": [1, 2], "s": "x\"]}\n"]])
        let two = texts("\u{1E}1\n2\n")
        #expect(two.records == [1] && two.error?.code == .syntaxError)
        #expect(two.error?.message.contains("more than one JSON text") == true)
    }

    @Test func badTextsAndStrayBytesAreErrors() {
        let bad = texts("\u{1E}1\n\u{1E}{oops}\n\u{1E}2\n")
        #expect(bad.records == [1] && bad.error?.code == .syntaxError && bad.error?.message.hasPrefix("text 2") == true)
        #expect(texts("x\u{1E}1\n").error?.code == .syntaxError)
        var limits = Limits()
        limits.maxRecordBytes = 4
        #expect(texts("\u{1E}[1,2,3]\n", limits: limits).error?.limit == "maxRecordBytes")
    }

    @Test func theStandardRegistryReadsJSONTextSequences() throws {
        let value = try Registry.standard().decode(
            Array("\u{1E}1\n\u{1E}2\n".utf8), contentType: MediaType(type: "application", subtype: "json-seq"))
        #expect(value == [1, 2])
    }
}
