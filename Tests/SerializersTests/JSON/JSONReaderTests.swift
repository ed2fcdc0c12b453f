// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

@Suite struct JSONReaderTests {
    func read(
        _ text: String, options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default
    ) throws -> Value {
        try JSONReader(options: options, limits: limits).read(Array(text.utf8))
    }

    func error(
        _ text: String, options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default
    ) -> SatchelError? {
        error(Array(text.utf8), options: options, limits: limits)
    }

    func error(
        _ bytes: [UInt8], options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default
    ) -> SatchelError? {
        satchelError { try JSONReader(options: options, limits: limits).read(bytes) }
    }

    @Test func readsEveryKind() throws {
        let value = try read(
            #"{"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00","i":-12,"d":1.5e3,"t":true,"f":false,"n":null,"a":[1,[2,[]],{}]}"#)
        #expect(
            value == [
                "s": .string("a\"b\\c/d\né😀"), "i": -12, "d": 1500.0, "t": true, "f": false, "n": nil,
                "a": [1, [2, []], .object([:])],
            ])
    }

    @Test func keepsMemberOrderAndLastDuplicate() throws {
        let value = try read(#"{"z":1,"a":2,"m":3,"a":4}"#)
        #expect(Array(value.objectValue?.keys ?? []) == ["z", "a", "m"])
        #expect(value["a"] == 4)
    }

    @Test func integersAreExactAcrossSixtyFourBits() throws {
        #expect(try read("9223372036854775807") == .integer(Int64.max))
        #expect(try read("-9223372036854775808") == .integer(Int64.min))
        let big = try read("9223372036854775808")
        guard case .unsignedInteger(let number) = big else {
            Issue.record("expected an unsigned integer, got \(big)")
            return
        }
        #expect(number == 9_223_372_036_854_775_808)
        #expect(try read("18446744073709551615") == .unsignedInteger(UInt64.max))
        #expect(try read("-0") == .integer(0))
        #expect(try read("-0.0").doubleValue?.sign == .minus)
    }

    @Test func integersBeyondSixtyFourBitsFollowTheOption() throws {
        for text in ["18446744073709551616", "-9223372036854775809", String(repeating: "9", count: 10_000)] {
            let failure = error("[1, \(text)]")
            #expect(failure?.code == .numberOutOfRange)
            #expect(failure?.offset == 4)
        }
        var options = JSONReadingOptions()
        options.bigIntegers = .string
        #expect(
            try read("[18446744073709551616, -9223372036854775809]", options: options)
                == ["18446744073709551616", "-9223372036854775809"])
        options.bigIntegers = .double
        #expect(try read("[18446744073709551616]", options: options) == [.double(18446744073709551616.0)])
        let huge = error("[\(String(repeating: "9", count: 10_000))]", options: options)
        #expect(huge?.code == .numberOutOfRange)
        #expect(huge?.keyPath == "$[0]")
    }

    @Test func doublesThatOverflowAreRejectedAndUnderflowIsZero() throws {
        let failure = error(#"{"x":[1E400]}"#)
        #expect(failure?.code == .numberOutOfRange)
        #expect(failure?.keyPath == "$.x[0]")
        #expect(try read("1e-400") == .double(0))
    }

    @Test func malformedTextNamesOffsetLineAndColumn() throws {
        let failure = error("[1,\n 2,\n x]")
        #expect(failure?.code == .syntaxError)
        #expect(failure?.offset == 9)
        #expect(failure?.line == 3)
        #expect(failure?.column == 2)
        #expect(failure?.description.contains("found 'x'") == true)

        for (text, offset) in [
            ("[1,]", 3), ("{\"a\":1,}", 7), ("{'a':1}", 1), ("[01]", 1), ("[-01]", 1), ("[1.]", 3),
            ("[-.5]", 2), ("[.5]", 1), ("[NaN]", 1), ("[Infinity]", 1), ("[-Infinity]", 2), ("[nan]", 2),
            ("/*c*/[1]", 0), ("[1]//c", 3), ("[\"a\tb\"]", 3), ("[\"\\x\"]", 2), ("[1] x", 4), ("[1][2]", 3),
            ("{\"a\" 1}", 5), ("{1:2}", 1), ("[\"\\u12\"]", 6), ("truth", 3),
        ] {
            let failure = error(text)
            #expect(failure?.code == .syntaxError, "\(text)")
            #expect(failure?.offset == offset, "\(text): \(failure.map(String.init(describing:)) ?? "")")
        }
    }

    @Test func truncatedTextIsTruncatedInput() throws {
        for text in ["[1,", "{\"a\":", "\"abc", "tru", "-", "[1.", "{", "\"\\u00", ""] {
            #expect(error(text)?.code == .truncatedInput || error(text)?.code == .syntaxError, "\(text)")
        }
        #expect(error("[1,")?.code == .truncatedInput)
        #expect(error("\"abc")?.description.contains("inside a string") == true)
        #expect(error("")?.code == .truncatedInput)
        #expect(error("  \n")?.code == .truncatedInput)
    }

    @Test func invalidUTF8AndLoneSurrogatesAreRejected() throws {
        let cases: [[UInt8]] = [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE6, 0x97, 0x22], [0x22, 0x80, 0x22],
        ]
        for bytes in cases {
            let failure = error(bytes)
            #expect(failure?.code == .invalidEncoding, "\(bytes)")
        }
        for text in [#"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#, #"["\ud800x"]"#, #"["\udc00\ud800"]"#] {
            let failure = error(text)
            #expect(failure?.code == .invalidEncoding, "\(text)")
            #expect(failure?.offset == 2, "\(text)")
        }
        #expect(try read(#""\ud83d\ude00""#) == "😀")
        #expect(error([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00])?.code == .invalidEncoding)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONReader().read([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8)) == ["a": 1])
        #expect(error([0xEF, 0xBB, 0xBF])?.code == .truncatedInput)
    }

    @Test func nullCharactersInMemberNamesSurvive() throws {
        let value = try read(#"{"a\u0000b":1,"a\u0000c":2,"plain":"x\u0000y"}"#)
        #expect(Array(value.objectValue?.keys ?? []) == ["a\u{0}b", "a\u{0}c", "plain"])
        #expect(value["plain"] == "x\u{0}y")
        // A real U+FDD0 in a name is kept as it is when no name holds U+0000.
        #expect(try read(#"{"\ufdd0":1}"#).objectValue?.keys.first?.unicodeScalars.first?.value == 0xFDD0)
        #expect(error(#"{"\ufdd0":1,"\u0000":2}"#)?.code == .invalidArgument)
    }

    @Test func deepNestingHitsTheDepthLimit() throws {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        let failure = error(deep)
        #expect(failure?.code == .limitExceeded)
        #expect(failure?.limit == "maxDepth")
        #expect(failure?.offset == 512)

        let nested = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { _ = try read(nested) }
        #expect(error(nested, limits: Limits(maxDepth: 100))?.offset == 100)
        // A negative limit is no nesting at all, a limit error rather than a failure inside json-c.
        #expect(error("[1]", limits: Limits(maxDepth: -1))?.limit == "maxDepth")
        #expect(try read("1", limits: Limits(maxDepth: -1)) == 1)
        // Limits above the supported maximum are capped, never trusted to the stack.
        let tooDeep = String(repeating: "[", count: 1_001) + String(repeating: "]", count: 1_001)
        #expect(error(tooDeep, limits: Limits(maxDepth: 1_000_000))?.limit == "maxDepth")
    }

    @Test func longStringsHitTheStringLimit() throws {
        let limits = Limits(maxBodyBytes: 300 * 1024 * 1024, maxStringBytes: 100 * 1024 * 1024)
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 200 * 1024 * 1024 + 4)
        bytes[0] = UInt8(ascii: "[")
        bytes[1] = UInt8(ascii: "\"")
        bytes[bytes.count - 2] = UInt8(ascii: "\"")
        bytes[bytes.count - 1] = UInt8(ascii: "]")
        let failure = error(bytes, limits: limits)
        #expect(failure?.code == .limitExceeded)
        #expect(failure?.limit == "maxStringBytes")
        #expect(failure?.offset == 1)
    }

    @Test func bodyAndMemberLimits() throws {
        let body = error("[1,2,3,4,5,6,7,8,9]", limits: Limits(maxBodyBytes: 10))
        #expect(body?.limit == "maxBodyBytes")
        let members = error(#"{"a":{"x":1,"y":2,"z":3}}"#, limits: Limits(maxPairs: 2))
        #expect(members?.limit == "maxPairs")
        #expect(members?.keyPath == "$.a")
    }

    @Test func optionsRemoveNullsAndRestrictTopLevel() throws {
        var options = JSONReadingOptions()
        options.removesKeysWithNullValues = true
        #expect(
            try read(#"{"a":null,"b":[1,null,{"c":null,"d":2}],"e":{}}"#, options: options)
                == ["b": [1, ["d": 2]], "e": .object([:])])
        options = JSONReadingOptions()
        #expect(try read("5") == 5)
        #expect(try read("\"x\"") == "x")
        options.allowsTopLevelScalars = false
        #expect(error("5", options: options)?.code == .syntaxError)
        #expect(error("null", options: options)?.code == .syntaxError)
        #expect(try read("[5]", options: options) == [5])
    }

    /// A document with every token kind, escapes, non-ASCII text and numbers of every shape.
    static let document: [UInt8] = {
        var text = "{\"items\":["
        for index in 0..<300 {
            if index > 0 { text += "," }
            text += #"{"id":\#(index),"name":"item \#(index) é😀\"\\\n","price":\#(Double(index) * 1.25),"#
            text += #""big":\#(UInt64.max - UInt64(index)),"neg":-\#(index)e-2,"ok":\#(index % 2 == 0),"none":null,"#
            text += #""tags":["a","\u00e9\ud83d\ude00",[]],"nested":{"k\u0000\#(index)":{}}}"#
        }
        return Array((text + "]}  \n").utf8)
    }()

    @Test(arguments: [1, 7, 4096, Int.max])
    func chunkSizeDoesNotChangeTheResult(_ size: Int) throws {
        let whole = try JSONReader().read(Self.document)
        let reader = JSONReader().makeIncrementalReader()
        var start = 0
        while start < Self.document.count {
            let end = min(Self.document.count, start + min(size, Self.document.count))
            try reader.feed(Array(Self.document[start..<end]))
            start = end
        }
        #expect(try reader.finish() == whole)
        #expect(whole["items"]?[299]?["nested"]?.objectValue?.keys.first == "k\u{0}299")
    }

    @Test func bigIntegerRewritingWorksAcrossChunks() throws {
        var options = JSONReadingOptions()
        options.bigIntegers = .string
        let text = Array("[123456789012345678901234567890, 1]".utf8)
        let reader = JSONReader(options: options).makeIncrementalReader()
        for byte in text { try reader.feed([byte]) }
        #expect(try reader.finish() == ["123456789012345678901234567890", 1])
    }

    @Test func incrementalErrorsArriveWithTheBadChunk() throws {
        let reader = JSONReader().makeIncrementalReader()
        try reader.feed(Array("[1, 2".utf8))
        #expect(throws: SatchelError.self) { try reader.feed(Array(", x]".utf8)) }
    }

    struct User: Codable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
        var score: Double?
        var nested: Nested

        struct Nested: Codable, Equatable {
            var flag: Bool
        }
    }

    @Test func decodesDecodableTypes() throws {
        let text = Array(
            #"[{"id":1,"name":"Ann","tags":["a"],"nested":{"flag":true}},{"id":2,"name":"Bo","tags":[],"score":2.5,"nested":{"flag":false}}]"#
                .utf8)
        let users = try JSONReader().read([User].self, from: text)
        #expect(
            users == [
                User(id: 1, name: "Ann", tags: ["a"], score: nil, nested: .init(flag: true)),
                User(id: 2, name: "Bo", tags: [], score: 2.5, nested: .init(flag: false)),
            ])
        do {
            _ = try JSONReader().read(
                [User].self, from: Array(#"[{"id":"1","name":"x","tags":[],"nested":{"flag":true}}]"#.utf8))
            Issue.record("a string decoded as Int")
        } catch {
            #expect(error.code == .typeMismatch)
            #expect(error.keyPath == "$[0].id")
        }
        do {
            _ = try JSONReader().read(User.self, from: Array(#"{"id":1,"name":"x","tags":[],"nested":{}}"#.utf8))
            Issue.record("a missing key decoded")
        } catch {
            #expect(error.code == .valueNotFound)
            #expect(error.keyPath == "$.nested.flag")
        }
    }

    @Test func writerOutputReadsBackToTheSameValue() throws {
        let value = try JSONReader().read(Self.document)
        for pretty in [false, true] {
            var options = JSONWriter.Options()
            options.prettyPrinted = pretty
            let text = try JSONWriter(options: options).write(value)
            #expect(try JSONReader().read(text) == value)
        }
    }
}
