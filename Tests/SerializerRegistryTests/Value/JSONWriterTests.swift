// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Testing

/// Writes `value` with options adjusted by `configure`, as text.
func json(_ value: Value, _ configure: (inout JSONWriter.Options) -> Void = { _ in }) throws(SatchelError) -> String {
    var options = JSONWriter.Options()
    configure(&options)
    return String(decoding: try JSONWriter(options: options).write(value), as: UTF8.self)
}

/// The error writing `value` throws, if any.
func jsonError(_ value: Value, _ configure: (inout JSONWriter.Options) -> Void = { _ in }) -> SatchelError? {
    do {
        _ = try json(value, configure)
        return nil
    } catch {
        return error
    }
}

/// RFC 8259 §6 `number`.
func isJSONNumber(_ text: String) -> Bool {
    text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil
}

@Suite("JSONWriter strings (RFC 8259 §7)")
struct JSONWriterStringTests {
    @Test func everyControlCharacterIsEscaped() throws {
        let short: [UInt8: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
        for byte in UInt8(0)..<0x20 {
            let text = try json(.string(String(UnicodeScalar(byte))))
            let hex = String(byte, radix: 16)
            let expected = short[byte] ?? #"\u00"# + (hex.count == 1 ? "0" + hex : hex)
            // Hex digits may be written in either case.
            #expect(text.lowercased() == "\"\(expected)\"", "byte \(byte)")
            #expect(!text.utf8.contains { $0 < 0x20 })
        }
    }

    @Test func quotesAndBackslashes() throws {
        #expect(try json(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(try json(#"\""#) == #""\\\"""#)
        #expect(try json("") == #""""#)
    }

    @Test func slashes() throws {
        #expect(try json("a/b") == #""a\/b""#, "escaped by default, like Foundation")
        #expect(try json("a/b") { $0.escapesSlashes = false } == #""a/b""#)
    }

    @Test func nonASCIIIsWrittenRaw() throws {
        let text = "é日本🎉\u{2028}\u{7F}"
        #expect(try JSONWriter().write(.string(text)) == Array("\"\(text)\"".utf8))
    }

    @Test func keysAreEscaped() throws {
        #expect(try json(["a\"\n/": 1]) == #"{"a\"\n\/":1}"#)
    }

    @Test func bytesDatesAndPayloads() throws {
        #expect(try json(.bytes([1, 2, 3])) == #""AQID""#)
        #expect(try json(.bytes([0xFF, 0xFE])) == #""\/\/4=""#)
        #expect(try json(.date(Date(timeIntervalSinceReferenceDate: 0))) == #""2001-01-01T00:00:00Z""#)
        #expect(
            try json(.payload(TestPayload(width: 1))) { $0.escapesSlashes = false }
                == #"{"$test":{"width":1,"data":{"$data":""}}}"#)
    }
}

@Suite("JSONWriter numbers")
struct JSONWriterNumberTests {
    @Test(
        arguments: [
            (Int64.min, "-9223372036854775808"), (Int64.max, "9223372036854775807"),
            (0, "0"), (-1, "-1"), (9, "9"), (10, "10"), (-10, "-10"), (1234567890, "1234567890"),
        ] as [(Int64, String)])
    func integers(number: Int64, text: String) throws {
        #expect(try json(.integer(number)) == text)
    }

    @Test func unsignedIntegers() throws {
        #expect(try json(.unsignedInteger(.max)) == "18446744073709551615")
        #expect(try json(Value(UInt64(Int64.max) + 1)) == "9223372036854775808")
        #expect(try json(.unsignedInteger(0)) == "0")
    }

    @Test func shortestDoubles() throws {
        #expect(try json(0.1) == "0.1")
        #expect(try json(1.5) == "1.5")
        #expect(try json(-2.25) == "-2.25")
    }

    @Test(arguments: [
        0.1, 1e300, -0.0, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 100.0, 1e16, 123456.789, -1e-7, 2.0,
    ])
    func doublesAreValidJSONAndRoundTrip(number: Double) throws {
        let text = try json(.double(number))
        #expect(isJSONNumber(text), "\(text)")
        let parsed = try #require(Double(text))
        #expect(parsed == number)
        #expect(parsed.sign == number.sign)
    }

    @Test func nonFiniteNumbersThrowWithKeyPath() throws {
        for number in [Double.nan, .infinity, -.infinity] {
            let error = try #require(jsonError(["a": [1, .double(number)]]))
            #expect(error.code == .unencodableValue)
            #expect(error.keyPath == "$.a[1]")
        }
        #expect(jsonError(.double(.nan))?.keyPath == "$")
        #expect(jsonError(["x y": [["z": .double(.infinity)]]])?.keyPath == #"$["x y"][0].z"#)
    }

    @Test func nonFiniteNumbersAsNull() throws {
        let value: Value = ["a": [1, .double(.nan)], "b": .double(-.infinity)]
        #expect(try json(value) { $0.nonFiniteNumbers = .null } == #"{"a":[1,null],"b":null}"#)
    }
}

@Suite("JSONWriter layout")
struct JSONWriterLayoutTests {
    @Test func compactKeepsMemberOrder() throws {
        let value: Value = ["b": 1, "a": [true, false, nil], "c": [:]]
        #expect(try json(value) == #"{"b":1,"a":[true,false,null],"c":{}}"#)
        #expect(try json([]) == "[]")
        #expect(try json([:]) == "{}")
        #expect(try json(nil) == "null")
    }

    @Test func sortedKeys() throws {
        let value: Value = ["b": 1, "a": 2, "c": ["z": 1, "y": [["q": 1, "p": 2]]]]
        #expect(try json(value) { $0.sortedKeys = true } == #"{"a":2,"b":1,"c":{"y":[{"p":2,"q":1}],"z":1}}"#)
    }

    @Test func prettyPrinting() throws {
        let value: Value = ["a": [1, 2], "b": [:], "c": [], "d": ["e": nil, "f": "g"]]
        #expect(
            try json(value) { $0.prettyPrinted = true } == """
                {
                  "a": [
                    1,
                    2
                  ],
                  "b": {},
                  "c": [],
                  "d": {
                    "e": null,
                    "f": "g"
                  }
                }
                """)
        #expect(try json([[1]]) { $0.prettyPrinted = true } == "[\n  [\n    1\n  ]\n]")
        #expect(try json(1) { $0.prettyPrinted = true } == "1")
        #expect(try json("s") { $0.prettyPrinted = true } == #""s""#)
        #expect(try json([]) { $0.prettyPrinted = true } == "[]")
    }

    @Test func prettyAndSorted() throws {
        let value: Value = ["b": 1, "a": 2]
        #expect(
            try json(value) {
                $0.prettyPrinted = true
                $0.sortedKeys = true
            } == "{\n  \"a\": 2,\n  \"b\": 1\n}")
    }

    @Test func maxDepth() throws {
        #expect(try json([[1]]) { $0.maxDepth = 2 } == "[[1]]")
        #expect(try json(["a": [:]]) { $0.maxDepth = 2 } == #"{"a":{}}"#)
        let error = try #require(jsonError(["a": [[1]]]) { $0.maxDepth = 2 })
        #expect(error.code == .limitExceeded)
        #expect(error.limit == "maxDepth")
        #expect(error.keyPath == "$.a[0]")
        #expect(error.message.contains("maxDepth"))
        // Scalars are not nesting.
        #expect(try json(1) { $0.maxDepth = 0 } == "1")
        #expect(jsonError([]) { $0.maxDepth = 0 }?.code == .limitExceeded)
    }

    @Test func defaultMaxDepthIsTheLimitsDefault() throws {
        #expect(JSONWriter.Options().maxDepth == Limits.default.maxDepth)
        func nested(_ depth: Int) -> Value {
            var value: Value = 0
            for _ in 0..<depth { value = [value] }
            return value
        }
        #expect(jsonError(nested(Limits.default.maxDepth)) == nil)
        #expect(jsonError(nested(Limits.default.maxDepth + 1))?.code == .limitExceeded)
    }

    @Test func writeAppends() throws {
        var output = Array("prefix:".utf8)
        try JSONWriter().write([1], into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "prefix:[1]")
    }

    @Test func defaultOptions() {
        let options = JSONWriter.Options()
        #expect(!options.prettyPrinted)
        #expect(!options.sortedKeys)
        #expect(options.escapesSlashes)
        #expect(options.nonFiniteNumbers == .throw)
    }
}
