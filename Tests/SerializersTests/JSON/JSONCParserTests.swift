// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// The json-c parsers that readers keep between reads (``JSONCParser``'s `keep` and `make`): a
/// kept parser must read the next text as a new one would, whatever the last read left in it.
@Suite struct JSONCParserTests {
    let document = #"{"records":[{"id":1,"tags":["a","b"]},{"id":2,"owner":{"login":"x"}}],"next":null}"#
    let expected: Value = [
        "records": [["id": 1, "tags": ["a", "b"]], ["id": 2, "owner": ["login": "x"]]], "next": nil,
    ]

    func read(_ text: String, limits: Limits = .default) throws -> Value {
        try JSONReader(limits: limits).read(Array(text.utf8))
    }

    @Test(arguments: [
        #"{"records":[{"id":1,"tags":["a","#,  // truncated inside an array inside an object
        #"{"records":[{"id":1} x"#,  // refused by the lexer after json-c has the open containers
        #"[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]"#,  // one close too many, after a complete value
        #"["\ud83d"#,  // truncated after a high surrogate: json-c's reset keeps it (found by the fuzzer)
        #"["\ud83d\"#,
    ])
    func aParserKeptAfterAFailedReadReadsTheNextTextAsNew(_ bad: String) throws {
        for _ in 0..<JSONCParserTests.rounds {
            #expect(throws: SatchelError.self) { try read(bad) }
            #expect(try read(document) == expected)
            #expect(throws: SatchelError.self) { try read(bad) }
            #expect(try read(#"["a\ud83d\ude00b","\u00e9"]"#) == ["a\u{1F600}b", "\u{E9}"])
        }
    }

    @Test(arguments: 1...9)
    func aParserLeftInsideAnEscapeByAChunkedReadIsNotReused(chunkSize: Int) throws {
        // Found by the fuzzer: json-c's reset keeps a pending high surrogate, so a parser left
        // mid-text by a failed chunked read put U+FFFD into the next reader's first escaped pair.
        let bad = Array(#"{"k\ud83d\ude00"ud82d\ude00b"}"#.utf8)
        let probe = Array(#"["s\ud82d\ude00"]"#.utf8)
        for _ in 0..<JSONCParserTests.rounds {
            let reader = JSONReader().makeIncrementalReader()
            #expect(throws: SatchelError.self) {
                try feedInChunks(bad, chunkSize: chunkSize) { try $0.withUnsafeBytes { try reader.feed($0) } }
                _ = try reader.finish()
            }
            #expect(try JSONReader().read(probe) == ["s\u{1B600}"])
        }
    }

    @Test func aKeptParserIsOnlyReusedAtItsOwnDepth() throws {
        // Reads at the default depth leave parsers of that depth; a deeper limit must still get a
        // tokener deep enough for its text, and a shallower one must still refuse at its limit.
        let nested = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        for _ in 0..<JSONCParserTests.rounds {
            #expect(try read(document) == expected)
            #expect(throws: Never.self) { try read(nested, limits: Limits(maxDepth: 1_000)) }
            #expect(try read(document) == expected)
            let shallow = #expect(throws: SatchelError.self) { try read("[[[1]]]", limits: Limits(maxDepth: 2)) }
            #expect(shallow?.limit == "maxDepth")
        }
    }

    @Test func aParserAfterALongTextReadsShortOnes() throws {
        // Longer than the kept parsers' bound: its parser is freed, not kept, and reads go on.
        let long = "[\"" + String(repeating: "x", count: 300_000) + "\"]"
        #expect(try read(long) == [.string(String(repeating: "x", count: 300_000))])
        #expect(try read(document) == expected)
    }

    @Test func readersOnManyThreadsAtOnceEachGetTheirOwnParser() async throws {
        // More readers at once than parsers are kept: each must read its own text.
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<200 {
                        let number = task * 1_000 + round
                        let value = try JSONReader().read(Array(#"{"n":\#(number),"s":["\#(number)"]}"#.utf8))
                        guard value == ["n": .integer(Int64(number)), "s": [.string("\(number)")]] else { return false }
                    }
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
    }

    /// More reads than parsers are kept, so that every kept parser is reused.
    static let rounds = 8
}
