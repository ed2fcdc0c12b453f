// SPDX-License-Identifier: Apache-2.0
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
        var headers: [MultipartReader.Part.Header]
        var name: String?
        var filename: String?
        var filenameStar: String?
        var contentType: String?
        var body: [UInt8]
        var spilled: Bool

        init(_ part: MultipartReader.Part) throws {
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

        var description: String {
            "#\(index)@\(offset)/\(bodyOffset) \(name ?? "-")=\(String(decoding: body, as: UTF8.self).debugDescription)"
        }
    }

    /// Parses `body` cut at `cuts` (sorted; a repeated cut feeds an empty chunk).
    static func parse(
        _ body: [UInt8], cuts: [Int] = [], boundary: String = "B", isFormData: Bool = true,
        options: MultipartReader.Options = MultipartReader.Options(), limits: Limits = .default
    ) -> Outcome {
        do {
            let parser = try MultipartReader(
                boundary: boundary, isFormData: isFormData, options: options, limits: limits)
            var parts: [MultipartReader.Part] = []
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
        options: MultipartReader.Options = MultipartReader.Options(), limits: Limits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome {
        let expected = parse(body, boundary: boundary, isFormData: isFormData, options: options, limits: limits)
        let text = String(decoding: body, as: UTF8.self).debugDescription
        for cut in 0...body.count {
            let got = parse(
                body, cuts: [cut], boundary: boundary, isFormData: isFormData, options: options, limits: limits)
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
            let outcome = Self.parse(Array(Self.strictBodies[index].utf8), isFormData: false, options: Self.crlfOnly)
            guard case .parts(let parts) = outcome else {
                Issue.record("strict seed \(index): \(outcome)")
                continue
            }
            #expect(!parts.isEmpty)
        }
        for seed in Self.decoderSeeds {
            #expect(
                Self.decodeOutcome(Array(seed.utf8), cuts: nil, registry: multipartRegistry(), limits: .default)
                    .hasPrefix("{"))
        }
    }

    static let crlfOnly = MultipartReader.Options(lineEndings: .crlf)

    @Test func everySplitOfStrictBodiesGivesTheWholeResult() {
        for body in Self.strictBodies {
            for options in [Self.crlfOnly, MultipartReader.Options()] {
                Self.expectSplitsAgree(Array(body.utf8), isFormData: false, options: options)
                Self.expectSplitsAgree(Array(body.utf8), isFormData: true, options: options)
            }
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
            Self.expectSplitsAgree(Array(body.utf8), options: MultipartReader.Options(lenient: true))
        }
    }

    @Test func lenientModeDropsOnlyTheCarriageReturnBeforeADelimiter() {
        let body = Array((Self.field("a", "x\r\r", eol: "\n") + "--B--").utf8)
        let outcome = Self.expectSplitsAgree(body, options: MultipartReader.Options(lenient: true))
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
            let outcome = Self.expectSplitsAgree(body, boundary: boundary, options: Self.crlfOnly)
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

    @Test func bareLineFeedDelimiterEndsThePartByDefault() {
        let body = Array((Self.field("a", "<\n--boundary\r\n\r\n>", boundary: "boundary") + "--boundary--").utf8)
        let outcome = Self.expectSplitsAgree(body, boundary: "boundary", isFormData: false)
        guard case .parts(let parts) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(parts.map(\.body) == [Array("<".utf8), Array(">".utf8)])
    }

    // MARK: - Mutation loop

    static let mutator = ByteMutator(
        alphabet: Array("\r\n-B \t:;=\"x".utf8) + [0x00, 0xFF],
        snippets: ["\r\n--B", "\r\n--B--", "\n--B\n", "--B\r\n", "\r\n\r\n", "\r\n "])

    static func randomCuts(_ count: Int, using generator: inout SeededGenerator) -> [Int] {
        guard count > 0 else { return [] }
        return (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 0...count, using: &generator) }
            .sorted()
    }

    @Test func mutatedBodiesAgreeInAnyChunking() {
        var generator = SeededGenerator(seed: 0x5A7C_4E1)
        let seeds = Self.strictBodies.map { Array($0.utf8) } + Self.lenientBodies.map { Array($0.utf8) }
        for iteration in 0..<3_000 {
            let body = Self.mutator.mutate(seeds[iteration % seeds.count], using: &generator)
            let lenient = iteration % 3 == 0
            let options = MultipartReader.Options(
                lenient: lenient, lineEndings: iteration % 5 < 2 ? .crlf : .crlfOrLF,
                memoryThreshold: iteration % 2 == 0 ? 8 : 1 << 20)
            let expected = Self.parse(body, isFormData: iteration % 4 < 2, options: options)
            let cuts = Self.randomCuts(body.count, using: &generator)
            let got = Self.parse(body, cuts: cuts, isFormData: iteration % 4 < 2, options: options)
            #expect(
                got == expected,
                "iteration \(iteration), cuts \(cuts), body \(String(decoding: body, as: UTF8.self).debugDescription)")
            if got != expected { return }
        }
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        replacing(target, with: replacement)
    }
}
