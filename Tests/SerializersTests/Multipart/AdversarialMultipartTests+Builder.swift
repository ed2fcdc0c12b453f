// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

// MARK: - Builder

/// A stream over bytes that returns a few bytes per read, and may announce a length and yield
/// another number of bytes.
final class ChoppyStream: BodyStream {
    let bytes: [UInt8]
    let announced: Int64?
    var position = 0
    var generator: SeededGenerator
    var rewinds = 0

    init(_ bytes: [UInt8], announced: Int64? = nil, seed: UInt64) {
        self.bytes = bytes
        self.announced = announced
        generator = SeededGenerator(seed: seed)
    }

    var length: Int64? { announced }
    var isRewindable: Bool { true }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard position < bytes.count, buffer.count > 0 else { return 0 }
        let count = min(buffer.count, bytes.count - position, Int.random(in: 1...7, using: &generator))
        bytes[position..<(position + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
        position += count
        return count
    }

    func rewind() throws {
        position = 0
        rewinds += 1
    }
}

/// A stream that returns a byte count it was not asked for.
final class LyingStream: BodyStream {
    let answer: Int
    init(answer: Int) { self.answer = answer }
    var length: Int64? { nil }
    var isRewindable: Bool { true }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { answer }
    func rewind() throws {}
}

extension AdversarialMultipartTests {
    /// What a random form should parse back to, part by part.
    indirect enum Expected {
        case leaf(name: String?, filename: String?, body: [UInt8])
        case nested(name: String, boundary: String, parts: [Expected])
    }

    static func randomBytes(_ count: Int, using generator: inout SeededGenerator) -> [UInt8] {
        let alphabet: [UInt8] = Array("ab-\r\n B=".utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        return (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
    }

    static func randomForm(
        depth: Int, boundary: String, using generator: inout SeededGenerator
    ) throws -> (form: MultipartFormData, expected: [Expected], knownLength: Bool) {
        var form = MultipartFormData(
            subtype: depth == 0 ? .formData : .mixed, boundary: try MultipartBoundary(boundary))
        var expected: [Expected] = []
        var knownLength = true
        for index in 0..<Int.random(in: 0...5, using: &generator) {
            let name = ["f\(index)", "名前\(index)", "a\"b\(index)", "x;y=\(index)", "c\\\(index)\\", "\\\(index)\\\\"]
                .randomElement(using: &generator)!
            let size = [0, 1, 2, 5, 63, 64, 65, 300].randomElement(using: &generator)!
            let bytes = randomBytes(size, using: &generator)
            let seed = generator.next()
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                let text = String(decoding: bytes.filter { $0 < 0x80 }, as: UTF8.self)
                form.append(text, name: name)
                expected.append(.leaf(name: name, filename: nil, body: Array(text.utf8)))
            case 1:
                let filename = ["a.txt", "../é.png", "q\"\r\n.bin", "noext", "b\\", "\\\\"].randomElement(
                    using: &generator)!
                try form.append(bytes, name: name, filename: filename)
                expected.append(.leaf(name: name, filename: filename, body: bytes))
            case 2:
                try form.append(name: name, length: Int64(bytes.count)) { ChoppyStream(bytes, seed: seed) }
                expected.append(.leaf(name: name, filename: nil, body: bytes))
            case 3:
                try form.append(name: name, length: nil) { ChoppyStream(bytes, seed: seed) }
                expected.append(.leaf(name: name, filename: nil, body: bytes))
                knownLength = false
            case 4 where depth < 2:
                let inner = try randomForm(
                    depth: depth + 1, boundary: "in\(depth)x\(index)-" + boundary, using: &generator)
                try form.append(inner.form, name: name)
                expected.append(.nested(name: name, boundary: "in\(depth)x\(index)-" + boundary, parts: inner.expected))
                knownLength = knownLength && inner.knownLength
            default:
                let part = MultipartPart(
                    name: name, mediaType: MediaType(type: "application", subtype: "octet-stream"),
                    headers: [MultipartPart.Header(name: "X-Index", value: "\(index)\t;\"")], body: .bytes(bytes))
                try form.append(part)
                expected.append(.leaf(name: name, filename: nil, body: bytes))
            }
        }
        return (form, expected, knownLength)
    }

    /// Reads the whole stream with buffers of random sizes.
    static func drain(
        _ stream: MultipartBodyStream, using generator: inout SeededGenerator, stopAfter: Int = .max
    ) throws -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 600)
        while output.count < stopAfter {
            let size = [0, 1, 2, 3, 17, 64, 600].randomElement(using: &generator)!
            let count = try buffer.withUnsafeMutableBytes {
                try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<size]))
            }
            #expect(count <= size)
            if count == 0 && size > 0 { break }
            output += buffer[0..<count]
        }
        return output
    }

    static func check(_ body: [UInt8], boundary: String, isFormData: Bool, against expected: [Expected]) throws {
        let parts = try MultipartReader.read(body, boundary: boundary, isFormData: isFormData)
        #expect(parts.count == expected.count)
        for (part, wanted) in zip(parts, expected) {
            switch wanted {
            case .leaf(let name, let filename, let bytes):
                #expect(part.name == name)
                #expect(part.filenameStar ?? part.filename == filename)
                #expect(try part.bytes() == bytes)
            case .nested(let name, let innerBoundary, let innerParts):
                #expect(part.name == name)
                let type = try MediaType(parsing: try #require(part.contentType))
                #expect(type[parameter: "boundary"] == innerBoundary)
                try check(try part.bytes(), boundary: innerBoundary, isFormData: false, against: innerParts)
            }
        }
    }

    @Test func builderLengthsBytesAndRewindsAgreeForRandomForms() throws {
        var generator = SeededGenerator(seed: 0xB0D1_E5)
        for iteration in 0..<300 {
            let boundary = "bnd\(iteration)"
            let (form, expected, knownLength) = try Self.randomForm(depth: 0, boundary: boundary, using: &generator)
            let stream = try form.makeBodyStream()
            #expect((stream.length != nil) == knownLength, "iteration \(iteration)")
            let first = try Self.drain(stream, using: &generator)
            if let length = stream.length { #expect(Int64(first.count) == length, "iteration \(iteration)") }
            #expect(try stream.read(into: UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)) == 0)
            // Rewind in the middle of a second pass, then read it all again.
            try stream.rewind()
            let partial = try Self.drain(
                stream, using: &generator, stopAfter: Int.random(in: 0...max(first.count, 1), using: &generator))
            #expect(Array(first.prefix(partial.count)) == partial)
            try stream.rewind()
            let second = try Self.drain(stream, using: &generator)
            #expect(second == first, "iteration \(iteration)")
            #expect(stream.bytesSent == Int64(first.count))
            try Self.check(first, boundary: boundary, isFormData: true, against: expected)
            // The parser agrees in random chunkings too.
            let cuts = Self.randomCuts(first.count, using: &generator)
            #expect(Self.parse(first, cuts: cuts, boundary: boundary) == Self.parse(first, boundary: boundary))
        }
    }

    @Test func streamsThatDisagreeWithTheirDeclaredLengthFailAndNeverEndEarly() throws {
        let boundary = "B"
        let cases: [(declared: Int64, actual: Int, announced: Int64?)] = [
            (10, 9, nil), (10, 11, nil), (10, 0, nil), (0, 1, nil), (10, 10, 9), (10, 10, 11),
        ]
        for (index, testCase) in cases.enumerated() {
            var form = MultipartFormData(boundary: try MultipartBoundary(boundary))
            form.append("before", name: "a")
            let bytes = [UInt8](repeating: 0x61, count: testCase.actual)
            try form.append(name: "s", length: testCase.declared) { [announced = testCase.announced] in
                ChoppyStream(bytes, announced: announced, seed: UInt64(index))
            }
            form.append("after", name: "z")
            var nested = MultipartFormData(subtype: .mixed, boundary: try MultipartBoundary("inner"))
            try nested.append(name: "s", length: testCase.declared) { [announced = testCase.announced] in
                ChoppyStream(bytes, announced: announced, seed: UInt64(index))
            }
            var outer = MultipartFormData(boundary: try MultipartBoundary(boundary))
            try outer.append(nested, name: "n")
            for stream in [try form.makeBodyStream(), try outer.makeBodyStream()] {
                var generator = SeededGenerator(seed: UInt64(index))
                var produced: [UInt8] = []
                var failure: SatchelError?
                for _ in 0..<2 {
                    do {
                        produced += try Self.drain(stream, using: &generator)
                    } catch let error as SatchelError {
                        failure = error
                        break
                    }
                }
                #expect(failure?.code == .io, "case \(index): \(String(describing: failure))")
                #expect(produced.count < Int(stream.length ?? 0), "case \(index)")
                // A failed stream keeps failing until it is rewound.
                #expect(throws: SatchelError.self) { _ = try Self.drain(stream, using: &generator) }
                try stream.rewind()
                #expect(throws: SatchelError.self) { _ = try Self.drain(stream, using: &generator) }
            }
        }
    }

    @Test func streamsThatReturnImpossibleCountsAreErrors() throws {
        for answer in [-1, 1_000_000] {
            var form = MultipartFormData(boundary: try MultipartBoundary("B"))
            try form.append(name: "s", length: nil) { LyingStream(answer: answer) }
            try form.append(name: "t", length: 4) { LyingStream(answer: answer) }
            let stream = try form.makeBodyStream()
            var generator = SeededGenerator(seed: 1)
            #expect(throws: SatchelError.self) { _ = try Self.drain(stream, using: &generator) }
        }
    }
}

extension AdversarialMultipartTests {
    /// Regression: a declared stream length near `Int64.max` trapped on an arithmetic overflow
    /// while the body's length was added up in `makeBodyStream()`.
    @Test func declaredLengthsThatOverflowTheBodyLengthAreErrors() throws {
        for lengths in [
            [Int64.max], [Int64.max - 10], [Int64.max / 2, Int64.max / 2], [Int64.max / 2 + 1, Int64.max / 2 + 1],
        ] {
            var form = MultipartFormData(boundary: try MultipartBoundary("B"))
            for (index, length) in lengths.enumerated() {
                try form.append(name: "s\(index)", length: length) { ByteBodyStream([]) }
            }
            #expect(throws: SatchelError.self, "\(lengths)") { _ = try form.makeBodyStream() }
            var outer = MultipartFormData(boundary: try MultipartBoundary("outer"))
            try outer.append(form, name: "nested")
            #expect(throws: SatchelError.self, "nested \(lengths)") { _ = try outer.makeBodyStream() }
        }
        // Large but representable lengths are still accepted.
        var form = MultipartFormData(boundary: try MultipartBoundary("B"))
        try form.append(name: "s", length: Int64.max / 4) { ByteBodyStream([]) }
        #expect(try form.makeBodyStream().length ?? 0 > Int64.max / 4)
    }
}
