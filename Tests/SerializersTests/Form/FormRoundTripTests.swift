// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

@Suite("Form round trips")
struct FormRoundTripTests {
    private func roundTrip(
        _ value: Value, _ encoding: FormWriter.Options = FormWriter.Options(),
        _ decoding: FormReader.Options = FormReader.Options()
    ) throws -> Value {
        try FormReader(options: decoding).read(FormWriter(options: encoding).write(value))
    }

    @Test("nested objects and arrays of strings (keys already sorted)")
    func nested() throws {
        let value: Value = [
            "a": "1 + 1 = 2 & more",
            "list": ["x", "", "x", "é😀"],
            "user": [
                "address": ["city": "Zürich", "lines": ["Bahnhofstrasse 1", "8001"]],
                "name": "Zoë",
                "pets": [["age": "3", "kind": "cat"], ["age": "5", "kind": "dog"]],
            ],
            "z": nil,
        ]
        #expect(try roundTrip(value) == value)
    }

    @Test("insertion order survives without sorting")
    func unsorted() throws {
        let value: Value = ["zeta": "1", "alpha": ["y": "2", "b": "3"], "mid": ["q", "p"]]
        var options = FormWriter.Options()
        options.sortsKeys = false
        let decoded = try roundTrip(value, options)
        #expect(decoded == value)
        #expect(decoded.objectValue?.keys.elementsEqual(["zeta", "alpha", "mid"]) == true)
    }

    @Test("sorting reorders members but not elements")
    func sorted() throws {
        let value: Value = ["b": ["3", "1", "2"], "a": ["d": "x", "c": "y"]]
        #expect(try roundTrip(value) == ["a": ["c": "y", "d": "x"], "b": ["3", "1", "2"]])
    }

    @Test("indexed style round-trips nested arrays, which brackets cannot")
    func indexedNestedArrays() throws {
        let value: Value = ["m": [["1", "2"], ["3"]], "o": [["k": ["a", "b"]], ["k": ["c"]]]]
        var options = FormWriter.Options()
        options.arrayStyle = .indexed
        #expect(try roundTrip(value, options) == value)
    }

    @Test("scalars come back as their text")
    func scalars() throws {
        let value: Value = ["b": true, "d": 2.5, "i": -7, "n": nil, "u": .unsignedInteger(UInt64.max), "w": 3.0]
        #expect(
            try roundTrip(value) == ["b": "1", "d": "2.5", "i": "-7", "n": nil, "u": "18446744073709551615", "w": "3"])
        var literal = FormWriter.Options()
        literal.boolStyle = .literal
        #expect(try roundTrip(["t": true, "f": false], literal) == ["f": "false", "t": "true"])
    }

    @Test("plus for spaces decodes back to spaces")
    func plusSpaces() throws {
        var options = FormWriter.Options()
        options.spaceEncoding = .plus
        let value: Value = ["a b": "c d+e", "k": ["x y": "z"]]
        #expect(try roundTrip(value, options) == value)
    }

    @Test("no-brackets arrays round-trip when collecting duplicates")
    func noBracketsCollect() throws {
        var encoding = FormWriter.Options()
        encoding.arrayStyle = .noBrackets
        var decoding = FormReader.Options()
        decoding.duplicateKeys = .collectIntoArray
        #expect(
            try roundTrip(["a": ["1", "2", "3"], "b": "4"], encoding, decoding) == ["a": ["1", "2", "3"], "b": "4"])
    }

    @Test("random nested structures round-trip with indexed arrays", arguments: 0..<40)
    func random(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let value = Self.randomObject(depth: 0, using: &generator)
        var options = FormWriter.Options()
        options.arrayStyle = .indexed
        options.sortsKeys = false
        #expect(try roundTrip(value, options) == value, "seed \(seed)")
    }

    // MARK: - Generation

    /// Characters for keys and values: reserved ones, spaces, '+', '%', UTF-8 (no brackets or
    /// digit-only keys, which have meaning in keys).
    private static let alphabet: [String] = ["a", "b", "Z", " ", "+", "%", "&", "=", "?", "/", "é", "😀", "#", ";", "~"]

    private static func randomText(using generator: inout SeededGenerator, allowEmpty: Bool) -> String {
        let length = Int.random(in: (allowEmpty ? 0 : 1)...6, using: &generator)
        return (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" }.joined()
    }

    private static func randomObject(depth: Int, using generator: inout SeededGenerator) -> Value {
        var members = ValueObject()
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            members["k" + randomText(using: &generator, allowEmpty: true)] = randomValue(
                depth: depth + 1, using: &generator)
        }
        return .object(members)
    }

    private static func randomValue(depth: Int, using generator: inout SeededGenerator) -> Value {
        let choice = depth >= 4 ? Int.random(in: 0...1, using: &generator) : Int.random(in: 0...3, using: &generator)
        switch choice {
        case 0:
            return .string(randomText(using: &generator, allowEmpty: true))
        case 1:
            return Bool.random(using: &generator) ? .null : .string(randomText(using: &generator, allowEmpty: false))
        case 2:
            return .array(
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    randomValue(depth: depth + 1, using: &generator)
                })
        default:
            return randomObject(depth: depth, using: &generator)
        }
    }
}
