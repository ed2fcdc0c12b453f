// SPDX-License-Identifier: Apache-2.0
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// A multipart response decoded as it arrives: parts delivered one by one.
@Suite(.hangGuard) struct MultipartStreamingTests {
    let contentType = try! MediaType(parsing: "multipart/mixed; boundary=stream")

    func part(_ contentType: String, _ body: [UInt8]) -> [UInt8] {
        Array("--stream\r\nContent-Type: \(contentType)\r\n\r\n".utf8) + body + Array("\r\n".utf8)
    }

    @Test func theFirstPartIsUsableBeforeTheLastArrives() async throws {
        let registry = Registry.standard()
        let decoder = MultipartIncrementalReader(
            serializer: MultipartResponseSerializer(registry: registry), contentType: contentType,
            limits: registry.limits)
        decoder.retainsParts = false
        var iterator = decoder.makePartStream().makeAsyncIterator()

        try decoder.feed(part("application/json", Array(#"{"first":true}"#.utf8)))
        // The delimiter that ends the first part, and the head of the last.
        try decoder.feed(Array("--stream\r\nContent-Type: application/octet-stream\r\n\r\n".utf8))
        let first = try await iterator.next()
        #expect(first?.value == ["first": true])

        // The last part, 8 MiB in 64 KiB chunks, arrives afterwards; it spills to a file.
        let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
        for _ in 0..<128 { try decoder.feed(chunk) }
        try decoder.feed(Array("\r\n--stream--\r\n".utf8))
        let finished = try decoder.finish()
        let last = try await iterator.next()
        #expect(last?.part.size == 8 * 1024 * 1024)
        #expect(last?.part.isSpilled == true)
        #expect(try await iterator.next() == nil)
        // Nothing was kept for the final value.
        #expect((finished?.multipartParts)?.isEmpty == true)
    }

    @Test func callbacksSeeEveryPartInOrderAndTheValueKeepsThem() throws {
        let decoder = MultipartIncrementalReader(
            serializer: MultipartResponseSerializer(), contentType: contentType, limits: .default)
        var seen: [Int] = []
        decoder.onPart = { seen.append($0.part.index) }
        let body = part("text/plain", Array("a".utf8)) + part("text/plain", Array("b".utf8)) + Array("--stream--".utf8)
        for byte in body { try decoder.feed([byte]) }
        let value = try decoder.finish()
        #expect(seen == [0, 1])
        #expect((value?.multipartParts)?.map(\.value) == ["a", "b"])
    }

    @Test func aBrokenBodyEndsTheStreamWithItsError() async throws {
        let decoder = MultipartIncrementalReader(
            serializer: MultipartResponseSerializer(), contentType: contentType, limits: .default)
        let stream = decoder.makePartStream()
        try decoder.feed(part("text/plain", Array("a".utf8)))
        #expect(throws: SatchelError.self) { try decoder.finish() }  // the closing delimiter never came
        var values: [Value] = []
        do {
            for try await element in stream { values.append(element.value) }
            Issue.record("the stream ended without the error")
        } catch let error as SatchelError {
            #expect(error.code == .truncatedInput)
        }
        #expect(values.isEmpty)  // the part was never closed by a delimiter
    }
}
