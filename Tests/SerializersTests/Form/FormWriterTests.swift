// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A payload kind no form can express.
private final class FormTestPayload: ValuePayload, Equatable {
    static let kind = "$formTest"
    var canonicalValue: Value { "opaque" }

    static func == (lhs: FormTestPayload, rhs: FormTestPayload) -> Bool { lhs === rhs }
}

@Suite("Form encoder")
struct FormWriterTests {
    private func encode(_ value: Value, _ options: FormWriter.Options = FormWriter.Options()) throws -> String {
        try FormWriter(options: options).queryString(from: value)
    }

    // MARK: - Top level

    @Test("null and empty parameters encode to nothing")
    func emptyParameters() throws {
        #expect(try encode(.null) == "")
        #expect(try encode([:]) == "")
        #expect(try FormWriter().write(.null) == [])
    }

    @Test(
        "top-level parameters that are not an object are an invalid argument",
        arguments: [
            Value.array(["a"]), "text", 1, true, 1.5, .bytes([1]),
        ])
    func topLevelMustBeObject(parameters: Value) {
        let error = #expect(throws: SatchelError.self) { try encode(parameters) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(parameters.kindName) == true)
    }

    // MARK: - Order

    @Test("keys are sorted by Swift String ordering")
    func sortsKeys() throws {
        let parameters: Value = ["b": 2, "a b": 4, "c": 3, "B": 5, "a": 1]
        // "B" (0x42) < "a" (0x61) < "a b" (prefix) < "b" < "c".
        #expect(try encode(parameters) == "B=5&a=1&a%20b=4&b=2&c=3")
    }

    @Test("nested keys are sorted at every level")
    func sortsNestedKeys() throws {
        let parameters: Value = ["z": ["y": 1, "x": 2], "a": ["d": 3, "c": 4]]
        #expect(try encode(parameters) == "a%5Bc%5D=4&a%5Bd%5D=3&z%5Bx%5D=2&z%5By%5D=1")
    }

    @Test("sortsKeys false keeps insertion order")
    func insertionOrder() throws {
        let parameters: Value = ["b": 2, "c": ["z": 1, "y": 2], "a": 1]
        var options = FormWriter.Options()
        options.sortsKeys = false
        #expect(try encode(parameters, options) == "b=2&c%5Bz%5D=1&c%5By%5D=2&a=1")
    }

    @Test("array elements keep their order whether or not keys are sorted", arguments: [true, false])
    func arraysKeepOrder(sortsKeys: Bool) throws {
        let parameters: Value = ["list": ["c", "a", "b"], "numbers": [3, 1, 2]]
        var options = FormWriter.Options()
        options.sortsKeys = sortsKeys
        #expect(
            try encode(parameters, options)
                == "list%5B%5D=c&list%5B%5D=a&list%5B%5D=b&numbers%5B%5D=3&numbers%5B%5D=1&numbers%5B%5D=2")
    }

    // MARK: - Structure

    @Test("nested mixed structures follow AFNetworking's naming")
    func nestedMixed() throws {
        let parameters: Value = [
            "user": [
                "name": "Ann",
                "tags": ["x", "y"],
                "address": ["zip": nil, "city": "Paris"],
                "pets": [["kind": "cat", "age": 3], ["kind": "dog"]],
            ],
            "page": 2,
        ]
        let pairs = try FormWriter().pairs(from: parameters).map { pair in
            pair.value.map { "\(pair.key)=\(String(decoding: $0, as: UTF8.self))" } ?? pair.key
        }
        #expect(
            pairs == [
                "page=2",
                "user[address][city]=Paris",
                "user[address][zip]",
                "user[name]=Ann",
                "user[pets][][age]=3",
                "user[pets][][kind]=cat",
                "user[pets][][kind]=dog",
                "user[tags][]=x",
                "user[tags][]=y",
            ])
    }

    @Test("nested arrays repeat the brackets")
    func nestedArrays() throws {
        #expect(try encode(["a": [[1, 2], [3]]]) == "a%5B%5D%5B%5D=1&a%5B%5D%5B%5D=2&a%5B%5D%5B%5D=3")
    }

    @Test("null gives the bare key, inside objects and arrays too")
    func nullIsBareKey() throws {
        #expect(try encode(["a": nil, "b": 1]) == "a&b=1")
        #expect(try encode(["a": [nil, 1]]) == "a%5B%5D&a%5B%5D=1")
        #expect(try encode(["a": ["b": nil]]) == "a%5Bb%5D")
    }

    @Test("empty nested objects and arrays produce nothing")
    func emptyContainers() throws {
        #expect(try encode(["a": [:], "b": [], "c": 1, "d": ["e": [], "f": [:]]]) == "c=1")
        #expect(try encode(["a": [[], [:]]]) == "")
    }

    @Test("an empty key is written as it is")
    func emptyKey() throws {
        #expect(try encode(["": "v"]) == "=v")
    }

    // MARK: - Options

    @Test(
        "array styles",
        arguments: [
            (FormWriter.ArrayStyle.brackets, "a%5B%5D=1&a%5B%5D=2&b%5B%5D%5Bc%5D=3"),
            (.noBrackets, "a=1&a=2&b%5Bc%5D=3"),
            (.indexed, "a%5B0%5D=1&a%5B1%5D=2&b%5B0%5D%5Bc%5D=3"),
        ])
    func arrayStyles(style: FormWriter.ArrayStyle, expected: String) throws {
        var options = FormWriter.Options()
        options.arrayStyle = style
        #expect(try encode(["a": [1, 2], "b": [["c": 3]]], options) == expected)
    }

    @Test("indexed style numbers nested arrays at every level")
    func indexedNested() throws {
        var options = FormWriter.Options()
        options.arrayStyle = .indexed
        #expect(
            try encode(["m": [["x", "y"], ["z"]]], options)
                == "m%5B0%5D%5B0%5D=x&m%5B0%5D%5B1%5D=y&m%5B1%5D%5B0%5D=z")
    }

    @Test(
        "bool styles",
        arguments: [
            (FormWriter.BoolStyle.numeric, "f=0&t=1"),
            (.literal, "f=false&t=true"),
        ])
    func boolStyles(style: FormWriter.BoolStyle, expected: String) throws {
        var options = FormWriter.Options()
        options.boolStyle = style
        #expect(try encode(["t": true, "f": false], options) == expected)
    }

    @Test("space encoding applies to keys and values; '+' itself is always escaped")
    func spaceEncoding() throws {
        let parameters: Value = ["a b": "c d+e"]
        #expect(try encode(parameters) == "a%20b=c%20d%2Be")
        var options = FormWriter.Options()
        options.spaceEncoding = .plus
        #expect(try encode(parameters, options) == "a+b=c+d%2Be")
    }

    @Test("maxDepth bounds nesting below the parameters object")
    func maxDepth() throws {
        var options = FormWriter.Options()
        options.maxDepth = 2
        #expect(try encode(["a": ["b": ["c"]]], options) == "a%5Bb%5D%5B%5D=c")
        let error = #expect(throws: SatchelError.self) {
            try encode(["a": ["b": [["c": 1]]]], options)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
        #expect(error?.keyPath == "$.a.b[0]")
    }

    // MARK: - Scalars

    @Test("integers are decimal, signed and unsigned")
    func integers() throws {
        #expect(try encode(["a": .integer(Int64.min)]) == "a=-9223372036854775808")
        #expect(try encode(["a": .unsignedInteger(UInt64.max)]) == "a=18446744073709551615")
        #expect(try encode(["a": 0]) == "a=0")
    }

    @Test(
        "doubles: integral below 1e15 without a fraction, otherwise the shortest text",
        arguments: [
            (1.0, "1"), (-2.0, "-2"), (1.5, "1.5"), (0.1, "0.1"), (-0.0, "0"),
            (999_999_999_999_999.0, "999999999999999"), (-999_999_999_999_999.0, "-999999999999999"),
            (1e15, "1000000000000000.0"), (1e20, "1e%2B20"), (1e-7, "1e-07"), (123.456, "123.456"),
        ])
    func doubles(number: Double, expected: String) throws {
        #expect(try encode(["a": .double(number)]) == "a=\(expected)")
    }

    @Test(
        "non-finite doubles are unencodable, with their key path",
        arguments: [
            Double.nan, .infinity, -.infinity,
        ])
    func nonFiniteDoubles(number: Double) {
        let error = #expect(throws: SatchelError.self) {
            try encode(["outer": ["list": [1, .double(number)]]])
        }
        #expect(error?.code == .unencodableValue)
        #expect(error?.keyPath == "$.outer.list[1]")
    }

    @Test("bytes are escaped raw, not as base64")
    func bytes() throws {
        #expect(try encode(["b": .bytes([0x00, 0x41, 0x20, 0xFF, 0x7E])]) == "b=%00A%20%FF~")
    }

    @Test("dates are ISO 8601 in UTC, with milliseconds only when needed")
    func dates() throws {
        #expect(try encode(["d": .date(Date(timeIntervalSince1970: 0))]) == "d=1970-01-01T00%3A00%3A00Z")
        #expect(
            try encode(["d": .date(Date(timeIntervalSince1970: 1_000_000_000.5))])
                == "d=2001-09-09T01%3A46%3A40.500Z")
    }

    @Test("payloads are unencodable, with their key path")
    func payloads() {
        let error = #expect(throws: SatchelError.self) {
            try encode(["a": ["b": [1, .payload(FormTestPayload())]]])
        }
        #expect(error?.code == .unencodableValue)
        #expect(error?.keyPath == "$.a.b[1]")
        #expect(error?.message.contains("$formTest") == true)
    }

    // MARK: - Pairs

    @Test("pairs are unescaped, with nil for a null")
    func pairs() throws {
        let pairs = try FormWriter().pairs(from: ["a b": ["c&d": "é"], "n": nil, "raw": .bytes([0xFF])])
        #expect(
            pairs == [
                FormWriter.Pair(key: "a b[c&d]", value: Array("é".utf8)),
                FormWriter.Pair(key: "n", value: nil),
                FormWriter.Pair(key: "raw", value: [0xFF]),
            ])
    }

    @Test("encode(_:) returns the bytes of queryString(from:)")
    func encodeBytes() throws {
        let parameters: Value = ["a": "x y", "b": [1, 2]]
        let text = try FormWriter().queryString(from: parameters)
        #expect(try FormWriter().write(parameters) == Array(text.utf8))
        #expect(text == "a=x%20y&b%5B%5D=1&b%5B%5D=2")
    }

    @Test("pairs are written as given: in their order, escaped, a nil value as the bare key")
    func pairsKeepTheirOrder() throws {
        let pairs = [
            FormWriter.Pair(key: "z", value: Array("a b&c".utf8)), FormWriter.Pair(key: "a[]", value: Array("é".utf8)),
            FormWriter.Pair(key: "flag", value: nil), FormWriter.Pair(key: "z", value: []),
        ]
        #expect(try FormWriter().queryString(from: pairs) == "z=a%20b%26c&a%5B%5D=%C3%A9&flag&z=")
        let plus = FormWriter(options: FormWriter.Options(spaceEncoding: .plus))
        #expect(try plus.queryString(from: [FormWriter.Pair(key: "q", value: Array("a b".utf8))]) == "q=a+b")
        #expect(try FormWriter().queryString(from: []) == "")
    }
}
