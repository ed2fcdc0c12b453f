// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

extension AdversarialMultipartTests {
    /// Regression: a limit hit while decoding a part's value left the incremental decoder's
    /// parser healthy, so `finish()` after the failed `feed` returned the body without the part
    /// (`{"$multipart": []}`) instead of an error.
    @Test func anIncrementalDecoderStaysFailedAfterAPartLimitError() throws {
        let limits = Limits(maxStringBytes: 3)
        let type = MediaType(type: "multipart", subtype: "form-data").setting(parameter: "boundary", to: "B")
        let decoder = try #require(
            MultipartResponseSerializer().makeIncrementalReader(contentType: type, limits: limits))
        let body = Array((Self.field("a", "too long") + Self.field("b", "ok") + "--B--").utf8)
        var failure: SatchelError?
        do { try decoder.feed(body) } catch { failure = error }
        let error = try #require(failure)
        #expect(error.code == .limitExceeded)
        expectSame(error) { try decoder.finish() }
        expectSame(error) { try decoder.feed([]) }
    }
}

extension AdversarialMultipartTests {
    static let decoderSeeds: [String] = [
        "--B\r\nContent-Disposition: form-data; name=\"j\"\r\nContent-Type: application/json\r\n\r\n"
            + "{\"a\":[1,2,{\"b\":\"\\u0000\"}],\"n\":18446744073709551616}\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"m\"\r\nContent-Type: multipart/mixed; boundary=in\r\n\r\n"
            + "--in\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\na[b][]=1&a[b][]=2&c=%20\r\n"
            + "--in\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\ncaf\u{E9}\r\n--in--\r\n"
            + "--B--\r\n",
        field("t", "text") + "--B\r\nContent-Disposition: form-data; name=\"bin\"; filename=\"x.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\u{FF}\r\n--B--",
    ]

    static func decodeOutcome(
        _ body: [UInt8], cuts: [Int]?, registry: Registry, limits: Limits
    ) -> String {
        let type = MediaType(type: "multipart", subtype: "form-data").setting(parameter: "boundary", to: "B")
        do {
            guard let serializer = registry.responseSerializer(for: type) else { return "no serializer" }
            let value: Value?
            if let cuts, let decoder = serializer.makeIncrementalReader(contentType: type, limits: limits) {
                var start = 0
                for cut in cuts + [body.count] {
                    try decoder.feed(Array(body[start..<cut]))
                    start = cut
                }
                value = try decoder.finish()
            } else {
                value = try serializer.decode(body, contentType: type, limits: limits)
            }
            return value?.canonicalJSON() ?? "nil"
        } catch {
            return "\(error.code) at \(error.offset.map(String.init) ?? "-")"
        }
    }

    @Test func mutatedBodiesDecodeTheSameWholeAndIncrementally() {
        let registry = multipartRegistry()
        let lenientRegistry = multipartRegistry(options: MultipartReader.Options(lenient: true))
        var generator = SeededGenerator(seed: 0xDEC0_DE)
        let seeds = Self.decoderSeeds.map { Array($0.utf8) }
        for iteration in 0..<1_500 {
            let body = Self.mutator.mutate(seeds[iteration % seeds.count], using: &generator)
            let chosen = iteration % 2 == 0 ? registry : lenientRegistry
            let limits = iteration % 5 == 0 ? Limits(maxDepth: 2, maxStringBytes: 8, maxParts: 3) : .default
            let expected = Self.decodeOutcome(body, cuts: nil, registry: chosen, limits: limits)
            #expect(!expected.hasPrefix("not a SatchelError"), "\(expected)")
            let cuts = Self.randomCuts(body.count, using: &generator)
            let got = Self.decodeOutcome(body, cuts: cuts, registry: chosen, limits: limits)
            // Parts are decoded as the chunks complete them, so when a body has a limit error in
            // one part and a syntax error further on, which one is reported depends on where the
            // chunks end; values, and whether it fails, do not.
            let bothFailed = !expected.hasPrefix("{") && !got.hasPrefix("{")
            #expect(got == expected || bothFailed, "iteration \(iteration), cuts \(cuts)")
            if got != expected && !bothFailed { return }
        }
    }
}
