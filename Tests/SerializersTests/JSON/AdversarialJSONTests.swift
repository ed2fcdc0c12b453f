// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Adversarial tests of the JSON reader: every split position, rewrites at chunk edges, limits
/// and a seeded mutation loop. Each checks "a value or a SatchelError, never a crash" and
/// "chunked == whole".
@Suite struct AdversarialJSONTests {
    /// The outcome of a read: a value, or an error's code and offset.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(Value)
        case failure(SatchelError.Code, Int?)

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .failure(let code, let offset): "failure \(code) at \(offset.map(String.init) ?? "nil")"
            }
        }
    }

    static func outcome(_ body: () throws -> Value) -> Outcome {
        do {
            return .value(try body())
        } catch let error as SatchelError {
            return .failure(error.code, error.offset)
        } catch {
            Issue.record("not a SatchelError: \(error)")
            return .failure(.internal, nil)
        }
    }

    static func whole(
        _ bytes: [UInt8], options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default
    ) -> Outcome {
        outcome { try JSONReader(options: options, limits: limits).read(bytes) }
    }

    /// Feeds `bytes` cut at `cuts` (sorted offsets), including empty chunks where cuts repeat.
    static func chunked(
        _ bytes: [UInt8], cuts: [Int], options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default
    ) -> Outcome {
        outcome {
            let reader = JSONReader(options: options, limits: limits).makeIncrementalReader()
            var start = 0
            for cut in cuts + [bytes.count] {
                try bytes[start..<cut].withUnsafeBytes { try reader.feed($0) }
                start = cut
            }
            guard let value = try reader.finish() else { throw SatchelError(.internal, "no value") }
            return value
        }
    }

    static func bytewise(
        _ bytes: [UInt8], options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default
    ) -> Outcome {
        chunked(bytes, cuts: Array(bytes.indices.dropFirst()), options: options, limits: limits)
    }

    /// Checks that every two-chunk split, every three-chunk split near the interesting bytes,
    /// and one-byte chunks give the whole-buffer outcome.
    static func expectSplitsAgree(
        _ text: [UInt8], options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome {
        let expected = whole(text, options: options, limits: limits)
        for cut in 0...text.count {
            let got = chunked(text, cuts: [cut], options: options, limits: limits)
            #expect(
                got == expected, "split at \(cut) of \(String(decoding: text, as: UTF8.self))",
                sourceLocation: sourceLocation)
            if got != expected { return expected }
        }
        let got = bytewise(text, options: options, limits: limits)
        #expect(
            got == expected, "one-byte chunks of \(String(decoding: text, as: UTF8.self))",
            sourceLocation: sourceLocation)
        return expected
    }

    static let sampleDocuments: [String] = [
        #"{"a\u0000b":1,"c":[18446744073709551616,-99999999999999999999,1.5e3,0,-0],"d":"\ud83d\ude00 é 日本","\u0000":null}"#,
        #"[123456789012345678901234567890]"#,
        #"{"\u0000\u0000":"\u0000","x\n\u0041\u0000":[true,false,null]}"#,
        #"  [ "\\\"\/\b\f\n\r\t" , 1e-400 , 123.456E+7 , -1 ]  "#,
        #"18446744073709551616"#,
        #"-184467440737095516160"#,
        #"{"k\ud834\udd1e\u0000":"\ud834\udd1e"}"#,
        "\u{FEFF}{\"bom\":[1,2,3]}",
        "[\"\u{10FFFF}\u{800}\u{7FF}\u{80}\"]",
        #"{"a":{"b":{"c":[[[[{}]]]]}}}"#,
        #"12345678901234567890123456789012345678901234567890"#,
    ]

    @Test(arguments: [JSONReadingOptions.BigIntegers.throw, .double, .string])
    func everySplitOfSampleDocumentsGivesTheWholeResult(bigIntegers: JSONReadingOptions.BigIntegers) {
        var options = JSONReadingOptions()
        options.bigIntegers = bigIntegers
        for document in Self.sampleDocuments {
            _ = Self.expectSplitsAgree(Array(document.utf8), options: options)
        }
    }

    @Test func rewrittenTokensRoundTripInEveryChunking() throws {
        var options = JSONReadingOptions()
        options.bigIntegers = .string
        let text = Array(#"{"a\u0000b":[18446744073709551616,{"\u0000":-18446744073709551617}],"z":1}"#.utf8)
        let expected = Self.expectSplitsAgree(text, options: options)
        #expect(
            expected
                == .value([
                    "a\u{0}b": [.string("18446744073709551616"), ["\u{0}": .string("-18446744073709551617")]], "z": 1,
                ]))
        options.bigIntegers = .double
        let doubled = Self.expectSplitsAgree(text, options: options)
        #expect(
            doubled
                == .value([
                    "a\u{0}b": [.double(18446744073709551616), ["\u{0}": .double(-18446744073709551616)]], "z": 1,
                ]))
    }
}

// MARK: - Limits, depth and errors

/// Expects `body` to throw a ``SatchelError`` with the code, offset and message of `error`.
func expectSame(_ error: SatchelError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Any?) {
    do {
        _ = try body()
        Issue.record("no error; expected \(error)", sourceLocation: sourceLocation)
    } catch let thrown as SatchelError {
        #expect(
            thrown.code == error.code && thrown.offset == error.offset && thrown.message == error.message,
            "\(thrown) instead of \(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("not a SatchelError: \(error)", sourceLocation: sourceLocation)
    }
}

extension AdversarialJSONTests {
    /// Regression: runs of integer and fraction digits skipped the `maxStringBytes` check, so a
    /// 300-digit integer became a 300-byte string with `bigIntegers = .string` under a 100-byte
    /// limit, and a chunked reader held any number of digits.
    @Test(arguments: [JSONReadingOptions.BigIntegers.throw, .double, .string])
    func numbersObeyMaxStringBytesInEveryChunking(bigIntegers: JSONReadingOptions.BigIntegers) {
        var options = JSONReadingOptions()
        options.bigIntegers = bigIntegers
        let limits = Limits(maxStringBytes: 100)
        for text in [
            "[" + String(repeating: "9", count: 300) + "]",
            "[-" + String(repeating: "1", count: 300) + "]",
            "[1." + String(repeating: "5", count: 300) + "]",
            "[1e" + String(repeating: "5", count: 300) + "]",
            String(repeating: "7", count: 300),
        ] {
            let outcome = Self.expectSplitsAgree(Array(text.utf8), options: options, limits: limits)
            let start = text.hasPrefix("[") ? 1 : 0
            #expect(outcome == .failure(.limitExceeded, start), "\(text.prefix(8))…")
        }
        // At the limit exactly, the number is read.
        let exact = String(repeating: "9", count: 100)
        let outcome = Self.expectSplitsAgree(Array("[\(exact)]".utf8), options: options, limits: limits)
        switch bigIntegers {
        case .throw: #expect(outcome == .failure(.numberOutOfRange, 1))
        case .double: #expect(outcome == .value([.double(Double(exact)!)]))
        case .string: #expect(outcome == .value([.string(exact)]))
        }
    }

    /// Whether the tests run under a sanitizer (`SATCHEL_SANITIZER`, set by
    /// `scripts/test-sanitized`). Sanitized debug builds have frames many times larger (a
    /// JSONWriter level measured 14 KB under AddressSanitizer), so the small-stack tests are for
    /// the other builds.
    static let isSanitized = getenv("SATCHEL_SANITIZER") != nil

    /// Runs `body` on a new thread with `stackSize` bytes of stack and waits for it.
    static func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable {
            var body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.body()
                return nil
            }, box.toOpaque())
        guard status == 0 else {
            box.release()
            Issue.record("pthread_create failed: \(status)")
            return
        }
        pthread_join(thread, nil)
    }

    /// Regression: the tree conversion kept a `SatchelError` in every recursive frame (about
    /// 1.4 KB a level in release builds), so the default `maxDepth` (512) overflowed a 512 KiB
    /// thread stack and the documented maximum (1 000) needed 1.4 MB.
    @Test(
        .disabled(
            if: AdversarialJSONTests.isSanitized,
            "sanitized debug frames are far larger than the release frames this stack budget is for"))
    func supportedDepthFitsASmallThreadStack() {
        #if DEBUG
            let stackSize = 2 * 1024 * 1024  // unoptimized frames are several times larger
        #else
            let stackSize = 512 * 1024
        #endif
        let depth = JSONReadingOptions.maximumSupportedDepth
        Self.onThread(stackSize: stackSize) {
            let limits = Limits(maxDepth: depth)
            let arrays = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            let mixed = Array(
                (String(repeating: #"{"a":["#, count: depth / 2) + String(repeating: "]}", count: depth / 2)).utf8)
            // The typed path's `Value` conversion recurses the same way.
            let readers: [([UInt8]) throws -> Value] = [
                { try JSONReader(limits: limits).read($0) },
                { try JSONModelDecoder(limits: limits).decode(Value.self, from: $0) },
            ]
            for read in readers {
                for text in [arrays, mixed] {
                    var value = try? read(text)
                    #expect(value != nil)
                    var levels = 0
                    while let inner = value?.arrayValue?.first ?? value?["a"] {
                        value = inner
                        levels += 1
                    }
                    #expect(levels == depth - 1)
                }
            }
            // An error deep down still names its path.
            let failing = Array(
                (String(repeating: "[", count: depth) + "1e400" + String(repeating: "]", count: depth)).utf8)
            for read in readers {
                do {
                    _ = try read(failing)
                    Issue.record("1e400 was accepted")
                } catch let error as SatchelError {
                    #expect(error.code == .numberOutOfRange)
                    #expect(error.keyPath == "$" + String(repeating: "[0]", count: depth))
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
    }
}

extension AdversarialJSONTests {
    /// Regression: after a feed threw, the incremental reader kept its state and json-c had not
    /// seen the failing chunk, so more text could complete a value: "[1,]" (error at "]") then
    /// "2]" finished as [1,2].
    @Test func anIncrementalReaderStaysFailedAfterAnError() throws {
        for (first, second) in [("[1,]", "2]"), ("{\"a\":1}x", " "), ("[\"a\", 01", "]"), ("[\"\u{7F}\", 1e", "x1]")] {
            let reader = JSONReader().makeIncrementalReader()
            var failure: SatchelError?
            do {
                try reader.feed(Array(first.utf8))
                try reader.feed(Array(second.utf8))
            } catch {
                failure = error
            }
            let error = try #require(failure, "\(first) \(second)")
            #expect(error.code == .syntaxError)
            // Every later call reports the same error.
            for _ in 0..<2 {
                expectSame(error) { try reader.feed(Array(second.utf8)) }
                expectSame(error) { try reader.finish() }
            }
        }
        // Member names with U+0000, and removed nulls, decode through a Value built from
        // json-c's tree, which must still be alive then.
        var options = JSONReadingOptions()
        options.removesKeysWithNullValues = true
        let members = (0..<200).map { #""k\#($0)\u0000":[\#($0),null,{"x":null}]"# }.joined(separator: ",")
        let decoded = try JSONReader(options: options).read([String: [Value]].self, from: Array("{\(members)}".utf8))
        #expect(decoded.count == 200)
        #expect(decoded["k7\u{0}"] == [7, .object([:])])
        // A conversion error at the end is reported again too.
        let reader = JSONReader().makeIncrementalReader()
        try reader.feed(Array("[1e400]".utf8))
        #expect(throws: SatchelError.self) { try reader.finish() }
        #expect(throws: SatchelError.self) { try reader.finish() }
    }

    // MARK: - Mutation loop

    static let mutator = ByteMutator(
        alphabet: Array(#"[]{}:,"\u0-9eE.+ tfn"#.utf8) + [0x00, 0x80, 0xC3, 0xED, 0xF4, 0xEF, 0xBB, 0xBF, 0xFF],
        snippets: [
            #"\u0000"#, #"\ud83d\ude00"#, #"\ufdd0"#, "18446744073709551616", "-0", "1e400", "\u{FEFF}", #"\ud800"#,
        ])

    @Test func mutatedDocumentsAgreeInAnyChunking() {
        var generator = SeededGenerator(seed: 0x15_0A_11)
        let seeds = Self.sampleDocuments.map { Array($0.utf8) }
        let bigIntegers: [JSONReadingOptions.BigIntegers] = [.throw, .double, .string]
        for iteration in 0..<4_000 {
            let text = Self.mutator.mutate(seeds[iteration % seeds.count], using: &generator)
            var options = JSONReadingOptions()
            options.bigIntegers = bigIntegers[iteration % 3]
            options.allowsTopLevelScalars = iteration % 5 != 0
            let limits = iteration % 7 == 0 ? Limits(maxDepth: 3, maxStringBytes: 12) : .default
            let expected = Self.whole(text, options: options, limits: limits)
            let cuts = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                Int.random(in: 0...text.count, using: &generator)
            }.sorted()
            let got = Self.chunked(text, cuts: cuts, options: options, limits: limits)
            #expect(got == expected, "iteration \(iteration), cuts \(cuts): \(text)")
            if got != expected { return }
        }
    }
}
