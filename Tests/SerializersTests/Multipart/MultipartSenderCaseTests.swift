// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// Tests/Fixtures/multipart/sender-cases.json through the Swift API: bodies as browsers, curl,
/// old clients and hand-written servers send them, read exactly (the same cases run through the
/// C ABI in CAPITests and through `satchel decode` in the Tools package).
@Suite("Multipart bodies as real senders write them, through the Swift API")
struct MultipartSenderCaseTests {
    static let cases = (try? MultipartSenderCase.all()) ?? []

    @Test func fixtureHasEveryCase() {
        #expect(Self.cases.count >= 9)
        #expect(Self.cases.contains { $0.error != nil } && Self.cases.contains { $0.parts != nil })
    }

    @Test("the reader, in any chunking", arguments: cases)
    func reader(_ item: MultipartSenderCase) throws {
        let type = try MediaType(parsing: item.contentType)
        let options = MultipartReader.Options(lineEndings: item.crlfOnly ? .crlf : .crlfOrLF)
        for size in [0, 1, 7] {
            do {
                let parts = try parseParts(item.bodyBytes, contentType: type, chunkSize: size, options: options)
                let read = try parts.map {
                    MultipartSenderCase.Part(
                        name: $0.name, filename: $0.filenameStar ?? $0.filename,
                        body: String(decoding: try $0.bytes(), as: UTF8.self))
                }
                #expect(read == item.parts, "chunks of \(size)")
                #expect(try parts.map { try $0.bytes() } == item.parts?.map { Array($0.body.utf8) })
            } catch let error as SatchelError {
                let expected = try #require(item.error, "chunks of \(size): \(error)")
                #expect(error.code.name == expected.code)
                #expect(error.offset == expected.offset, "\(error)")
                for mention in expected.mentions { #expect(error.message.contains(mention), "\(error)") }
            }
        }
    }

    @Test("raw parts through the registry keep every byte, a byte order mark included", arguments: cases)
    func rawPartsThroughTheRegistry(_ item: MultipartSenderCase) throws {
        guard let expected = item.parts else { return }
        let registry = multipartRegistry(
            options: MultipartReader.Options(lineEndings: item.crlfOnly ? .crlf : .crlfOrLF), rawParts: true)
        let value = try registry.decode(item.bodyBytes, contentType: try MediaType(parsing: item.contentType))
        #expect(multipartElements(value).map(\.value) == expected.map { .string($0.body) })
    }
}
