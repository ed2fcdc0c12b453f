import Foundation
import SerializerRegistry
import Serializers
import Testing

// `SeededGenerator` and `ByteMutator` live in TestSupport.swift.

/// Adversarial tests of the multipart parser and builder: every split position, boundary-like
/// bytes, limits at their edge, spilling at the threshold, a seeded mutation loop, and builder
/// lengths against the bytes produced.
@Suite struct AdversarialMultipartTests {
    /// What a parse gave: the parts in a comparable form, or the error's code and offset.
    enum Outcome: Equatable, CustomStringConvertible {
        case parts([Summary])
        case failure(SatchelError.Code, Int?)

        var description: String {
            switch self {
            case .parts(let parts): "\(parts.count) parts \(parts)"
            case .failure(let code, let offset): "failure \(code) at \(offset.map(String.init) ?? "nil")"
            }
        }
    }

    struct Summary: Equatable, CustomStringConvertible {
        var index: Int
        var offset: Int
        var bodyOffset: Int
        var headers: [MultipartParser.Part.Header]
        var name: String?
        var filename: String?
        var filenameStar: String?
        var contentType: String?
        var body: [UInt8]
        var spilled: Bool

        init(_ part: MultipartParser.Part) throws {
            index = part.index
            offset = part.offset
            bodyOffset = part.bodyOffset
            headers = part.headers
            name = part.name
            filename = part.filename
            filenameStar = part.filenameStar
            contentType = part.contentType
            body = try part.bytes()
            spilled = part.isSpilled
        }

        var description: String { "#\(index)@\(offset)/\(bodyOffset) \(name ?? "-")=\(String(decoding: body, as: UTF8.self).debugDescription)" }
    }

    /// Parses `body` cut at `cuts` (sorted; a repeated cut feeds an empty chunk).
    static func parse(
        _ body: [UInt8], cuts: [Int] = [], boundary: String = "B", isFormData: Bool = true,
        options: MultipartParser.Options = MultipartParser.Options(), limits: Limits = .default
    ) -> Outcome {
        do {
            let parser = try MultipartParser(boundary: boundary, isFormData: isFormData, options: options, limits: limits)
            var parts: [MultipartParser.Part] = []
            var start = 0
            for cut in cuts + [body.count] {
                parts += try parser.feed(Array(body[start..<cut]))
                start = cut
            }
            try parser.finish()
            return .parts(try parts.map(Summary.init))
        } catch let error as SatchelError {
            return .failure(error.code, error.offset)
        } catch {
            Issue.record("not a SatchelError: \(error)")
            return .failure(.internal, nil)
        }
    }

    /// Checks every two-chunk split and one-byte chunks against the whole body.
    @discardableResult
    static func expectSplitsAgree(
        _ body: [UInt8], boundary: String = "B", isFormData: Bool = true,
        options: MultipartParser.Options = MultipartParser.Options(), limits: Limits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome {
        let expected = parse(body, boundary: boundary, isFormData: isFormData, options: options, limits: limits)
        let text = String(decoding: body, as: UTF8.self).debugDescription
        for cut in 0...body.count {
            let got = parse(body, cuts: [cut], boundary: boundary, isFormData: isFormData, options: options, limits: limits)
            #expect(got == expected, "split at \(cut) of \(text)", sourceLocation: sourceLocation)
            if got != expected { return expected }
        }
        let bytewise = parse(
            body, cuts: Array(body.indices.dropFirst()), boundary: boundary, isFormData: isFormData, options: options,
            limits: limits)
        #expect(bytewise == expected, "one-byte chunks of \(text)", sourceLocation: sourceLocation)
        return expected
    }

    static func field(_ name: String, _ value: String, boundary: String = "B", eol: String = "\r\n") -> String {
        "--\(boundary)\(eol)Content-Disposition: form-data; name=\"\(name)\"\(eol)\(eol)\(value)\(eol)"
    }

    // MARK: - Splits

    static let strictBodies: [String] = [
        field("a", "hello") + "--B--\r\n",
        "preamble\r\n--B\r\n" + field("a", "x").dropFirst(4) + field("b", "") + "--B--\r\nepilogue",
        field("a", "\r\n--b\r\n-B\r\n--\r\n\r\r\n\n--B\r--B--B-") + "--B--",
        field("a", "--") + field("b", "\r") + field("c", "\r\n") + "--B--",
        "--B \t\r\nContent-Disposition: form-data;\r\n\tname=\"f\"; filename=\"../x.txt\"; filename*=UTF-8''%E2%82%AC.txt\r\nContent-Type: text/plain\r\n\r\nbody\r\n--B--  ",
        "--B\r\n\r\n",
        "--B--",
        "--B",
        "\r\n--B\r\n" + field("a", "x").dropFirst(4) + "--B--",
        field("a", "x") + "--B-x",
        field("a", "x") + "--BX\r\n--B--",
        field("a", "x") + "--B\r",
        field("a", "x") + "--B\rX",
        field("a", "x").replacingOccurrences("\r\n\r\n", "\r\n\n"),
        "--B\r\nContent-Disposition: form-data; name=a\r\n\r\n--B--\r\n",
        "--B\r\nContent-Disposition: form-data; name=a\r\n\r\n-",
        "--B\r\nContent-Disposition: form-data; name=a\r\nX\r\n\r\n\r\n--B--",
    ]

    @Test func seedBodiesAreWellFormed() {
        for index in [0, 1, 2, 3, 4] {
            let outcome = Self.parse(Array(Self.strictBodies[index].utf8), isFormData: false)
            guard case .parts(let parts) = outcome else {
                Issue.record("strict seed \(index): \(outcome)")
                continue
            }
            #expect(!parts.isEmpty)
        }
        for seed in Self.decoderSeeds {
            #expect(Self.decodeOutcome(Array(seed.utf8), cuts: nil, registry: multipartRegistry(), limits: .default).hasPrefix("{"))
        }
    }

    @Test func everySplitOfStrictBodiesGivesTheWholeResult() {
        for body in Self.strictBodies {
            Self.expectSplitsAgree(Array(body.utf8), isFormData: false)
            Self.expectSplitsAgree(Array(body.utf8), isFormData: true)
        }
    }

    static let lenientBodies: [String] = [
        field("a", "x\r", eol: "\n") + "--B--",
        field("a", "\r\r", eol: "\n") + field("b", "\r", eol: "\r\n") + "--B--",
        field("a", "x", eol: "\n") + "\r--B--",
        "--B\nContent-Disposition: form-data; name=a\n\n--B\nContent-Disposition: form-data; name=b\n\n\r\n--B--",
        "--B\r\nContent-Disposition: form-data; name=a\r\n\r\n\r--B\r\n\r\n--B--",
        "--B\nContent-Disposition: form-data; name=a\n\nline\r\rline\r\n\r\n--Bx\n--B--",
        "--B\nContent-Disposition: form-data; name=a\n\n\r",
        "x\r\n\r--B\n" + field("a", "y", eol: "\n").dropFirst(4) + "--B--",
    ]

    @Test func everySplitOfLenientBodiesGivesTheWholeResult() {
        for body in Self.lenientBodies {
            Self.expectSplitsAgree(Array(body.utf8), options: MultipartParser.Options(lenient: true))
        }
    }

    @Test func lenientModeDropsOnlyTheCarriageReturnBeforeADelimiter() {
        let body = Array((Self.field("a", "x\r\r", eol: "\n") + "--B--").utf8)
        let outcome = Self.expectSplitsAgree(body, options: MultipartParser.Options(lenient: true))
        guard case .parts(let parts) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(parts.map(\.body) == [Array("x\r".utf8)])
    }

    @Test func boundaryLikeBytesInsideBodiesStayContent() {
        let boundary = "boundary"
        let contents = [
            "\r\n--boundar", "\r\n--boundar\r\n", "--boundary", "x--boundary", "\r\n-boundary", "\n--boundary",
            "\r--boundary", "\r\n--Boundary", "\r\r\n--boundar", "\r\n\r\n--boundar\r\n--boundar",
        ]
        for content in contents {
            let body = Array((Self.field("a", "<" + content + ">", boundary: boundary) + "--boundary--").utf8)
            let outcome = Self.expectSplitsAgree(body, boundary: boundary)
            guard case .parts(let parts) = outcome else {
                Issue.record("\(content.debugDescription): \(outcome)")
                continue
            }
            #expect(parts.map(\.body) == [Array(("<" + content + ">").utf8)], "\(content.debugDescription)")
        }
        // A delimiter followed by more boundary characters ends the part and is an error.
        let longer = Array((Self.field("a", "x\r\n--boundaryX", boundary: boundary) + "--boundary--").utf8)
        let outcome = Self.expectSplitsAgree(longer, boundary: boundary)
        #expect(outcome == .failure(.syntaxError, 69))
    }

    // MARK: - Spilling

    @Test(arguments: [-1, 0, 1])
    func partsAtTheSpillThreshold(delta: Int) throws {
        let threshold = 64
        let content = (0..<(threshold + delta)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        // A body of threshold+delta bytes, with a CR at the end and delimiter look-alikes.
        var payload = content
        if payload.count > 4 { payload.replaceSubrange(10..<14, with: Array("\r\n--".utf8)) }
        if let last = payload.indices.last { payload[last] = 0x0D }
        for lenient in [false, true] {
            let body = Array(Self.field("f", "").utf8.dropLast(2)) + payload + Array("\r\n--B--".utf8)
            let options = MultipartParser.Options(lenient: lenient, memoryThreshold: threshold)
            let outcome = Self.expectSplitsAgree(body, options: options)
            guard case .parts(let parts) = outcome, let part = parts.first else {
                Issue.record("\(outcome)")
                continue
            }
            #expect(part.body == payload)
            #expect(part.spilled == (payload.count > threshold))
        }
    }

    @Test func aFailedBodyRemovesItsSpilledFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-adversarial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? ["?"] }
        let options = MultipartParser.Options(memoryThreshold: 4, temporaryDirectory: folder.path)
        let parser = try MultipartParser(boundary: "B", options: options)
        _ = try parser.feed(Array(Self.field("a", "").utf8.dropLast(2)) + [UInt8](repeating: 0x7A, count: 100))
        #expect(files().count == 1)  // the part being read was spilled
        #expect(throws: SatchelError.self) { try parser.finish() }
        #expect(files().isEmpty)
        // The parser keeps failing with the same error.
        #expect(throws: SatchelError.self) { try parser.feed([0x41]) }
        #expect(throws: SatchelError.self) { try parser.finish() }
        // A completed spilled part keeps its file until it is released.
        do {
            let parts = try MultipartParser.parse(
                Array((Self.field("a", String(repeating: "z", count: 10)) + "--B--").utf8), boundary: "B", options: options)
            withExtendedLifetime(parts) {
                #expect(parts.first?.isSpilled == true)
                #expect(files().count == 1)
            }
        }
        #expect(files().isEmpty)
    }

    // MARK: - Limits

    @Test func headerLimitIsExactInEveryChunking() {
        let body = Array((Self.field("a", "x") + "--B--").utf8)
        // "Content-Disposition: form-data; name=\"a\"\r\n\r\n" is 44 bytes.
        let exact = Self.expectSplitsAgree(body, limits: Limits(maxPartHeaderBytes: 44))
        if case .parts(let parts) = exact { #expect(parts.count == 1) } else { Issue.record("\(exact)") }
        let over = Self.expectSplitsAgree(body, limits: Limits(maxPartHeaderBytes: 43))
        #expect(over == .failure(.limitExceeded, 5 + 43))
    }

    @Test func hugeHeaderLineIsStoppedAtTheLimit() throws {
        let parser = try MultipartParser(boundary: "B", limits: Limits(maxPartHeaderBytes: 1024))
        _ = try parser.feed(Array("--B\r\nX-Long: ".utf8))
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 4096)
        var failure: SatchelError?
        for _ in 0..<10 {
            do { _ = try parser.feed(chunk) } catch { failure = error; break }
        }
        #expect(failure?.code == .limitExceeded)
        #expect(failure?.offset == 5 + 1024)
    }

    @Test func partLimitIsExactInEveryChunking() {
        let body = Array((Self.field("a", "1") + Self.field("b", "2") + "--B--").utf8)
        let exact = Self.expectSplitsAgree(body, limits: Limits(maxParts: 2))
        if case .parts(let parts) = exact { #expect(parts.count == 2) } else { Issue.record("\(exact)") }
        let over = Self.expectSplitsAgree(body, limits: Limits(maxParts: 1))
        if case .failure(let code, _) = over { #expect(code == .limitExceeded) } else { Issue.record("\(over)") }
    }

    @Test func bodyLimitIsExactInEveryChunking() {
        let body = Array((Self.field("a", "1") + "--B--").utf8)
        let exact = Self.expectSplitsAgree(body, limits: Limits(maxBodyBytes: body.count))
        if case .parts(let parts) = exact { #expect(parts.count == 1) } else { Issue.record("\(exact)") }
        let over = Self.expectSplitsAgree(body, limits: Limits(maxBodyBytes: body.count - 1))
        #expect(over == .failure(.limitExceeded, body.count - 1))
    }

    /// Regression: a Content-Disposition error inside a folded line, or after ISO-8859-1 bytes
    /// (decoded to two UTF-8 bytes each), was reported at an offset computed in the joined,
    /// re-encoded text rather than in the body.
    @Test func contentDispositionErrorsPointAtTheOffendingByte() {
        func offendingOffset(_ body: [UInt8]) -> Int? {
            let outcome = Self.expectSplitsAgree(body)
            guard case .failure(.syntaxError, let offset?) = outcome else {
                Issue.record("\(outcome)")
                return nil
            }
            #expect(body[offset] == UInt8(ascii: "x"), "offset \(offset) is \(body[offset])")
            return offset
        }
        let head = Array("--B\r\nContent-Disposition: ".utf8)
        let tail = Array("\r\n\r\nv\r\n--B--".utf8)
        // The stray token "x" after a quoted name.
        _ = offendingOffset(head + Array("form-data; name=\"".utf8) + [0xE9, 0xE8] + Array("\" x".utf8) + tail)
        _ = offendingOffset(head + Array("form-data; name=\"日本\" x".utf8) + tail)
        _ = offendingOffset(head + Array("form-data;\r\n    name=a x".utf8) + tail)
        _ = offendingOffset(head + Array("form-data;\r\n\t name=\"".utf8) + [0xFF] + Array("\"\r\n  \t x".utf8) + tail)
    }

    // MARK: - Lifecycle

    @Test func emptyChunksFeedAfterFinishAndEmptyBodies() throws {
        let body = Array((Self.field("a", "x") + "--B--").utf8)
        var cuts: [Int] = []
        for index in body.indices { cuts += [index, index] }
        #expect(Self.parse(body, cuts: cuts) == Self.parse(body))

        let parser = try MultipartParser(boundary: "B")
        _ = try parser.feed(body)
        try parser.finish()
        #expect(throws: SatchelError.self) { try parser.feed([]) }

        #expect(Self.parse([]) == .failure(.truncatedInput, 0))
        #expect(Self.parse(Array("--B--".utf8)) == .parts([]))
        #expect(Self.parse(Array("--B--\r\n--B\r\n".utf8)) == .parts([]))
    }

    // MARK: - Nesting

    /// A body nested `depth` deep: each level's single part holds the next level.
    static func nestedBody(depth: Int) -> (body: [UInt8], contentType: MediaType) {
        var inner = Array("--b\(depth)z\r\nContent-Disposition: form-data; name=\"leaf\"\r\n\r\nleaf\r\n--b\(depth)z--".utf8)
        for level in stride(from: depth - 1, through: 1, by: -1) {
            inner = Array("--b\(level)z\r\nContent-Disposition: form-data; name=\"n\(level)\"\r\nContent-Type: multipart/form-data; boundary=b\(level + 1)z\r\n\r\n".utf8)
                + inner + Array("\r\n--b\(level)z--".utf8)
        }
        return (inner, MediaType(type: "multipart", subtype: "form-data").setting(parameter: "boundary", to: "b1z"))
    }

    @Test func nestingIsBoundedByMaxDepth() throws {
        let registry = multipartRegistry(limits: Limits(maxDepth: 8))
        let serializer = try #require(registry.responseSerializer(for: MediaType(type: "multipart", subtype: "form-data")))
        let (ok, type) = Self.nestedBody(depth: 8)
        var value = try serializer.decode(ok, contentType: type, limits: Limits(maxDepth: 8))
        for _ in 1..<8 {
            let elements = multipartElements(value)
            #expect(elements.count == 1)
            value = elements.first?.value
        }
        #expect(multipartElements(value).first?.value == .string("leaf"))
        let (deep, deepType) = Self.nestedBody(depth: 9)
        #expect(throws: SatchelError.self) {
            _ = try serializer.decode(deep, contentType: deepType, limits: Limits(maxDepth: 8))
        }
    }

    /// Regression: decoding a nested part took about 3 KB of stack per level in release builds
    /// (10 KB unoptimized), so a 70 KB body nested to the default `maxDepth` (512) overflowed a
    /// 512 KiB thread stack.
    @Test(.disabled(if: AdversarialJSONTests.isSanitized, "sanitized debug frames are far larger than the release frames this stack budget is for"))
    func nestingToTheDefaultMaxDepthFitsASmallThreadStack() {
        #if DEBUG
        let stackSize = 1024 * 1024  // unoptimized frames are several times larger
        #else
        let stackSize = 512 * 1024
        #endif
        let depth = Limits.default.maxDepth
        AdversarialJSONTests.onThread(stackSize: stackSize) {
            let registry = multipartRegistry()
            let type = MediaType(type: "multipart", subtype: "form-data")
            guard let serializer = registry.responseSerializer(for: type) else {
                Issue.record("no multipart serializer")
                return
            }
            let (body, contentType) = Self.nestedBody(depth: depth)
            do {
                var value = try serializer.decode(body, contentType: contentType, limits: .default)
                for _ in 1..<depth { value = multipartElements(value).first?.value }
                #expect(multipartElements(value).first?.value == .string("leaf"))
            } catch {
                Issue.record("\(error)")
            }
            let (deeper, deeperType) = Self.nestedBody(depth: depth + 1)
            do {
                _ = try serializer.decode(deeper, contentType: deeperType, limits: .default)
                Issue.record("nesting beyond maxDepth was accepted")
            } catch let error as SatchelError {
                #expect(error.code == .limitExceeded)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Regression: every nesting level is parsed from a copy of its part's body and kept in the
    /// value, so a body of under 1 MB nested 500 deep held about 500 MB (measured: 958 KB of body,
    /// 465 MB retained). The nested bodies of one body now count against `maxBodyBytes` together.
    @Test func nestedCopiesAreBoundedByMaxBodyBytes() throws {
        let registry = multipartRegistry()
        let serializer = try #require(registry.responseSerializer(for: MediaType(type: "multipart", subtype: "form-data")))
        // A 20 KB leaf nested 40 deep: about 800 KB of nested bodies in all.
        var (body, type) = Self.nestedBody(depth: 40)
        let leaf = Array("leaf".utf8)
        let at = try #require(body.indices.last { body[$0...].starts(with: leaf) })
        body.replaceSubrange(at..<(at + leaf.count), with: [UInt8](repeating: UInt8(ascii: "y"), count: 20_000))
        let roomy = Limits(maxBodyBytes: 2_000_000)
        #expect(throws: Never.self) { _ = try serializer.decode(body, contentType: type, limits: roomy) }
        let tight = Limits(maxBodyBytes: 200_000)
        do {
            _ = try serializer.decode(body, contentType: type, limits: tight)
            Issue.record("800 KB of nested copies were accepted under a 200 KB maxBodyBytes")
        } catch let error as SatchelError {
            #expect(error.code == .limitExceeded)
            #expect(error.limit == "maxBodyBytes")
        }
        // The same parts side by side (no nesting) are within the limit.
        let flat = Array((Self.field("a", String(repeating: "y", count: 20_000)) + "--B--").utf8)
        let flatType = MediaType(type: "multipart", subtype: "form-data").setting(parameter: "boundary", to: "B")
        #expect(throws: Never.self) { _ = try serializer.decode(flat, contentType: flatType, limits: tight) }
    }

    // MARK: - Mutation loop

    static let mutator = ByteMutator(
        alphabet: Array("\r\n-B \t:;=\"x".utf8) + [0x00, 0xFF],
        snippets: ["\r\n--B", "\r\n--B--", "\n--B\n", "--B\r\n", "\r\n\r\n", "\r\n "])

    static func randomCuts(_ count: Int, using generator: inout SeededGenerator) -> [Int] {
        guard count > 0 else { return [] }
        return (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 0...count, using: &generator) }.sorted()
    }

    @Test func mutatedBodiesAgreeInAnyChunking() {
        var generator = SeededGenerator(seed: 0x5A7C_4E1)
        let seeds = Self.strictBodies.map { Array($0.utf8) } + Self.lenientBodies.map { Array($0.utf8) }
        for iteration in 0..<3_000 {
            let body = Self.mutator.mutate(seeds[iteration % seeds.count], using: &generator)
            let lenient = iteration % 3 == 0
            let options = MultipartParser.Options(lenient: lenient, memoryThreshold: iteration % 2 == 0 ? 8 : 1 << 20)
            let expected = Self.parse(body, isFormData: iteration % 4 < 2, options: options)
            let cuts = Self.randomCuts(body.count, using: &generator)
            let got = Self.parse(body, cuts: cuts, isFormData: iteration % 4 < 2, options: options)
            #expect(got == expected, "iteration \(iteration), cuts \(cuts), body \(String(decoding: body, as: UTF8.self).debugDescription)")
            if got != expected { return }
        }
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        replacing(target, with: replacement)
    }
}

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
        case leaf(name: String?, fileName: String?, body: [UInt8])
        case nested(name: String, boundary: String, parts: [Expected])
    }

    static func randomBytes(_ count: Int, using generator: inout SeededGenerator) -> [UInt8] {
        let alphabet: [UInt8] = Array("ab-\r\n B=".utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        return (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
    }

    static func randomForm(
        depth: Int, boundary: String, using generator: inout SeededGenerator
    ) throws -> (form: MultipartFormData, expected: [Expected], knownLength: Bool) {
        var form = MultipartFormData(subtype: depth == 0 ? .formData : .mixed, boundary: try MultipartBoundary(boundary))
        var expected: [Expected] = []
        var knownLength = true
        for index in 0..<Int.random(in: 0...5, using: &generator) {
            let name = ["f\(index)", "名前\(index)", "a\"b\(index)", "x;y=\(index)", "c\\\(index)\\", "\\\(index)\\\\"].randomElement(using: &generator)!
            let size = [0, 1, 2, 5, 63, 64, 65, 300].randomElement(using: &generator)!
            let bytes = randomBytes(size, using: &generator)
            let seed = generator.next()
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                let text = String(decoding: bytes.filter { $0 < 0x80 }, as: UTF8.self)
                form.append(text, name: name)
                expected.append(.leaf(name: name, fileName: nil, body: Array(text.utf8)))
            case 1:
                let fileName = ["a.txt", "../é.png", "q\"\r\n.bin", "noext", "b\\", "\\\\"].randomElement(using: &generator)!
                try form.append(bytes, name: name, fileName: fileName)
                expected.append(.leaf(name: name, fileName: fileName, body: bytes))
            case 2:
                try form.append(name: name, length: Int64(bytes.count)) { ChoppyStream(bytes, seed: seed) }
                expected.append(.leaf(name: name, fileName: nil, body: bytes))
            case 3:
                try form.append(name: name, length: nil) { ChoppyStream(bytes, seed: seed) }
                expected.append(.leaf(name: name, fileName: nil, body: bytes))
                knownLength = false
            case 4 where depth < 2:
                let inner = try randomForm(depth: depth + 1, boundary: "in\(depth)x\(index)-" + boundary, using: &generator)
                try form.append(inner.form, name: name)
                expected.append(.nested(name: name, boundary: "in\(depth)x\(index)-" + boundary, parts: inner.expected))
                knownLength = knownLength && inner.knownLength
            default:
                let part = MultipartPart(
                    name: name, mediaType: MediaType(type: "application", subtype: "octet-stream"),
                    headers: [MultipartPart.Header(name: "X-Index", value: "\(index)\t;\"")], body: .bytes(bytes))
                try form.append(part)
                expected.append(.leaf(name: name, fileName: nil, body: bytes))
            }
        }
        return (form, expected, knownLength)
    }

    /// Reads the whole stream with buffers of random sizes.
    static func drain(_ stream: MultipartBodyStream, using generator: inout SeededGenerator, stopAfter: Int = .max) throws -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 600)
        while output.count < stopAfter {
            let size = [0, 1, 2, 3, 17, 64, 600].randomElement(using: &generator)!
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<size])) }
            #expect(count <= size)
            if count == 0 && size > 0 { break }
            output += buffer[0..<count]
        }
        return output
    }

    static func check(_ body: [UInt8], boundary: String, isFormData: Bool, against expected: [Expected]) throws {
        let parts = try MultipartParser.parse(body, boundary: boundary, isFormData: isFormData)
        #expect(parts.count == expected.count)
        for (part, wanted) in zip(parts, expected) {
            switch wanted {
            case .leaf(let name, let fileName, let bytes):
                #expect(part.name == name)
                #expect(part.filenameStar ?? part.filename == fileName)
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
            let partial = try Self.drain(stream, using: &generator, stopAfter: Int.random(in: 0...max(first.count, 1), using: &generator))
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
        for lengths in [[Int64.max], [Int64.max - 10], [Int64.max / 2, Int64.max / 2], [Int64.max / 2 + 1, Int64.max / 2 + 1]] {
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

extension AdversarialMultipartTests {
    /// Regression: a limit hit while decoding a part's value left the incremental decoder's
    /// parser healthy, so `finish()` after the failed `feed` returned the body without the part
    /// (`{"$multipart": []}`) instead of an error.
    @Test func anIncrementalDecoderStaysFailedAfterAPartLimitError() throws {
        let limits = Limits(maxStringBytes: 3)
        let type = MediaType(type: "multipart", subtype: "form-data").setting(parameter: "boundary", to: "B")
        let decoder = try #require(MultipartResponseSerializer().makeIncrementalDecoder(contentType: type, limits: limits))
        let body = Array((Self.field("a", "too long") + Self.field("b", "ok") + "--B--").utf8)
        var failure: SatchelError?
        do { try decoder.feed(body) } catch let error as SatchelError { failure = error }
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
            if let cuts, let decoder = serializer.makeIncrementalDecoder(contentType: type, limits: limits) {
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
        } catch let error as SatchelError {
            return "\(error.code) at \(error.offset.map(String.init) ?? "-")"
        } catch {
            return "not a SatchelError: \(error)"
        }
    }

    @Test func mutatedBodiesDecodeTheSameWholeAndIncrementally() {
        let registry = multipartRegistry()
        let lenientRegistry = multipartRegistry(options: MultipartParser.Options(lenient: true))
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
