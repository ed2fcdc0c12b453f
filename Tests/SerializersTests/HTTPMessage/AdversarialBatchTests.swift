// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// Seeded mutations of batch responses, embedded HTTP messages, Content-Range values and text
/// in odd charsets: every outcome is a value or a `SatchelError`, never a crash, a hang or an
/// error of another type.
@Suite struct AdversarialBatchTests {
    static let mutator = ByteMutator(
        alphabet: Array("\r\n :;-=/<>\"0123456789HTTPbatch".utf8) + [0x00, 0x0D, 0x0A, 0x80, 0xFF, 0xFE],
        snippets: [
            "\r\n", "\r", "--batch", "--batch--", "Content-Length: 99999\r\n", "Content-Length: -1\r\n",
            "Transfer-Encoding: chunked\r\n", "HTTP/1.1 200 OK\r\n", "HTTP/9.9 999 X\r\n", " : ", "\r\n ",
            "Content-Type: multipart/mixed; boundary=batch\r\n", "Content-Type: application/http\r\n",
            "Content-Type: application/json\r\n", "Content-ID: <response-x>\r\n",
        ])

    static let seed: [UInt8] = BatchResponseTests.batch([
        BatchResponseTests.embedded(
            "HTTP/1.1 200 OK", ["Content-Type: application/json", "Content-ID: <response-1>"],
            Array("{\"a\":[1,2]}".utf8)),
        BatchResponseTests.embedded(
            "HTTP/1.1 404 Not Found", ["Content-Type: application/problem+json"], Array("{\"title\":\"gone\"}".utf8)),
        BatchResponseTests.embedded(
            "HTTP/1.1 200 OK", ["Content-Type: text/plain; charset=utf-16"], [0xFF, 0xFE, 0x61, 0x00]),
        BatchResponseTests.embedded(
            "HTTP/1.1 200 OK", ["Content-Type: application/http"],
            BatchResponseTests.embedded("HTTP/1.1 204 No Content", [], [])),
    ])

    @Test func mutatedBatchesDecodeOrFailCleanly() throws {
        let registry = Registry.standard()
        var generator = SeededGenerator(seed: 0xBA7C4)
        var values = 0, errors = 0
        for _ in 0..<1500 {
            let body = Self.mutator.mutate(Self.seed, using: &generator)
            do {
                _ = try registry.decode(body, contentType: BatchResponseTests.batchType)?.canonicalJSON()
                values += 1
            } catch {
                #expect(error.code != .internal, "\(error)")
                errors += 1
            }
        }
        // Both outcomes occur, so the mutations reach past the first checks.
        #expect(values > 0 && errors > 0, "\(values) values, \(errors) errors")
    }

    @Test func mutatedEmbeddedMessagesDecodeOrFailCleanly() throws {
        let registry = Registry.standard()
        let serializer = HTTPMessageResponseSerializer(registry: registry)
        let seed = BatchResponseTests.embedded(
            "HTTP/1.1 500 Internal Server Error", ["Content-Type: application/json", "X-Trace: abc"],
            Array("{\"e\":1}".utf8))
        var generator = SeededGenerator(seed: 0x477)
        for _ in 0..<1500 {
            let body = Self.mutator.mutate(seed, using: &generator)
            do {
                _ = try serializer.decode(body, contentType: nil, limits: .default)?.canonicalJSON()
            } catch {
                #expect(error.code != .internal, "\(error)")
            }
        }
    }

    @Test func mutatedContentRangesAndTextNeverTrap() throws {
        var generator = SeededGenerator(seed: 0xC0DE)
        for _ in 0..<2000 {
            let range = String(
                decoding: Self.mutator.mutate(Array("bytes 100-199/1000".utf8), using: &generator), as: UTF8.self)
            if let parsed = try? ContentRange(parsing: range), let bounds = parsed.range {
                #expect(bounds.lowerBound <= bounds.upperBound)
                if let length = parsed.completeLength { #expect(bounds.upperBound < length) }
            }
            let text = Self.mutator.mutate([0xFE, 0xFF, 0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00], using: &generator)
            for type in [
                "text/plain", "text/plain; charset=utf-32le", "application/xml", "text/plain; charset=us-ascii",
            ] {
                _ = try? TextDecoding().decode(text, mediaType: try MediaType(parsing: type))
            }
        }
    }
}
