// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// `JSONModelEncoder`: the text written as the model encodes itself, Foundation's strategies,
/// the writing options, and models that write out of order.
@Suite struct JSONModelEncoderTests {
    func text<T: Encodable>(_ value: T, _ configure: (inout JSONModelEncoder) -> Void = { _ in }) throws -> String {
        var encoder = JSONModelEncoder()
        configure(&encoder)
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func failure<T: Encodable>(_ value: T, _ configure: (inout JSONModelEncoder) -> Void = { _ in }) -> SatchelError? {
        satchelError { try text(value, configure) }
    }

    struct Everything: Codable, Equatable {
        var flag: Bool
        var small: Int8
        var large: UInt64
        var negative: Int64
        var ratio: Float
        var precise: Double
        var text: String
        var optionalMissing: String?
        var when: Date
        var blob: Data
        var link: URL
        var anything: Value
        var nested: [[Int]]
        var map: [String: Double]
        var items: [Item]
    }

    struct Item: Codable, Equatable {
        var id: Int
        var tags: [String]
    }

    static let everything = Everything(
        flag: true, small: -128, large: .max, negative: .min, ratio: 0.1, precise: 0.1, text: "é\u{0}\"/\n",
        optionalMissing: nil, when: Date(timeIntervalSince1970: 978_307_200.5), blob: Data([0, 1, 2]),
        link: URL(string: "https://example.com/a?b=c")!, anything: ["k": [1, "two", nil]], nested: [[1, 2], [], [3]],
        map: ["a": 1], items: [Item(id: 1, tags: ["x"]), Item(id: 2, tags: [])])

    @Test func writesWhatTheTreePathWrites() throws {
        let streamed = try JSONModelEncoder().encode(Self.everything)
        let throughTree = try JSONWriter().write(ValueEncoder().encode(Self.everything))
        #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: throughTree, as: UTF8.self))
        #expect(try JSONModelDecoder().decode(Everything.self, from: streamed) == Self.everything)
        #expect(!String(decoding: streamed, as: UTF8.self).contains("optionalMissing"))
    }

    @Test func writingOptions() throws {
        let item = Item(id: 1, tags: ["a/b", "c"])
        var pretty = JSONWriter.Options()
        pretty.prettyPrinted = true
        #expect(
            try text(item, { $0.writingOptions = pretty })
                == "{\n  \"id\": 1,\n  \"tags\": [\n    \"a\\/b\",\n    \"c\"\n  ]\n}")
        var plain = JSONWriter.Options()
        plain.escapesSlashes = false
        #expect(try text(item, { $0.writingOptions = plain }) == #"{"id":1,"tags":["a/b","c"]}"#)
        var sorted = JSONWriter.Options()
        sorted.sortedKeys = true
        sorted.prettyPrinted = true
        struct Unsorted: Encodable {
            var zeta = 1
            var alpha = ["y": 2, "b": 1]
            var mid = [Item(id: 3, tags: [])]
        }
        let sortedText = try text(Unsorted(), { $0.writingOptions = sorted })
        var writer = JSONWriter.Options()
        writer.sortedKeys = true
        writer.prettyPrinted = true
        let expected = try JSONWriter(options: writer).write(ValueEncoder().encode(Unsorted()))
        #expect(sortedText == String(decoding: expected, as: UTF8.self))
        #expect(sortedText.hasPrefix("{\n  \"alpha\": {\n    \"b\": 1,\n    \"y\": 2\n  },\n  \"mid\""))
        var shallow = JSONWriter.Options()
        shallow.maxDepth = 2
        let deep = failure(["a": [[1]]], { $0.writingOptions = shallow })
        #expect(deep?.limit == "maxDepth")
        #expect(deep?.keyPath == "$.a[0]")
    }

    struct Account: Codable, Equatable {
        var userName: String
        var homePages: [String: Int]
    }

    @Test func keyEncodingStrategies() throws {
        let account = Account(userName: "ann", homePages: ["firstPage": 1])
        #expect(
            try text(account, { $0.keyEncoding = .convertToSnakeCase })
                == #"{"user_name":"ann","home_pages":{"first_page":1}}"#)
        #expect(
            try text(account, { $0.keyEncoding = .convertToKebabCase })
                == #"{"user-name":"ann","home-pages":{"first-page":1}}"#)
        #expect(
            try text(account, { $0.keyEncoding = .custom { $0.uppercased() } })
                == #"{"USERNAME":"ann","HOMEPAGES":{"FIRSTPAGE":1}}"#)
        // Read back with the matching decoding strategy.
        let snake = try JSONModelEncoder().encode(account)
        #expect(try JSONModelDecoder().decode(Account.self, from: snake) == account)
    }

    struct When: Codable { var at: Date }

    @Test func dateEncodingStrategies() throws {
        let when = When(at: Date(timeIntervalSince1970: 1_000_000_000.25))
        #expect(try text(when) == #"{"at":"2001-09-09T01:46:40.250Z"}"#)
        #expect(try text(when, { $0.dateEncoding = .secondsSince1970 }) == #"{"at":1000000000.25}"#)
        #expect(try text(when, { $0.dateEncoding = .millisecondsSince1970 }) == #"{"at":1000000000250.0}"#)
        #expect(
            try text(when, { $0.dateEncoding = .deferredToDate })
                == #"{"at":\#(when.at.timeIntervalSinceReferenceDate)}"#)
        #expect(try text(when, { $0.dateEncoding = .formatted { _ in "yesterday" } }) == #"{"at":"yesterday"}"#)
        let custom = try text(
            when,
            { encoder in
                encoder.dateEncoding = .custom { date, encoder in
                    var container = encoder.unkeyedContainer()
                    try container.encode(Int(date.timeIntervalSince1970))
                }
            })
        #expect(custom == #"{"at":[1000000000]}"#)
        let topLevel = try text(
            Date(timeIntervalSince1970: 0),
            { encoder in
                encoder.dateEncoding = .custom { _, encoder in
                    var container = encoder.singleValueContainer()
                    try container.encode("epoch")
                }
            })
        #expect(topLevel == #""epoch""#)
        // Each strategy reads back with the decoder's matching one.
        let encoded = try JSONModelEncoder().encode(when)
        #expect(try JSONModelDecoder().decode(When.self, from: encoded).at == when.at)
    }

    struct Blob: Codable { var bytes: Data }

    @Test func dataEncodingStrategies() throws {
        let blob = Blob(bytes: Data([0, 1, 255]))
        #expect(try text(blob) == #"{"bytes":"AAH\/"}"#)
        #expect(try text(blob, { $0.dataEncoding = .deferredToData }) == #"{"bytes":[0,1,255]}"#)
        let hex = try text(
            blob,
            { encoder in
                encoder.dataEncoding = .custom { data, encoder in
                    var container = encoder.singleValueContainer()
                    try container.encode(data.map { String(format: "%02x", $0) }.joined())
                }
            })
        #expect(hex == #"{"bytes":"0001ff"}"#)
    }

    struct Measure: Encodable { var values: [Double]; var single: Float }

    @Test func nonConformingFloats() throws {
        let measure = Measure(values: [1.5, .infinity, -.infinity, .nan], single: .nan)
        let error = failure(measure)
        #expect(error?.code == .unencodableValue)
        #expect(error?.keyPath == "$.values[1]")
        let converted = try text(
            measure,
            {
                $0.nonConformingFloatEncoding = .convertToString(
                    positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            })
        #expect(converted == #"{"values":[1.5,"+Inf","-Inf","NaN"],"single":"NaN"}"#)
    }

    @Test func exactNumbersAndValues() throws {
        struct Numbers: Encodable {
            var price = Decimal(string: "12345678901234567890.123456789")!
            var big = UInt64.max
            var small = Int64.min
            var tree: Value = ["a": [1, 2.5, "x", nil, true]]
        }
        #expect(
            try text(Numbers())
                == #"{"price":12345678901234567890.123456789,"big":18446744073709551615,"small":-9223372036854775808,"tree":{"a":[1,2.5,"x",null,true]}}"#
        )
        #expect(try text(42) == "42")
        #expect(try text("top") == #""top""#)
        #expect(try text([Int?.none, 1]) == "[null,1]")
    }

    class Animal: Codable {
        var name = "generic"
        init() {}
    }

    final class Dog: Animal, @unchecked Sendable {
        // Only touched by the test that made it.
        var good = true
        enum Keys: String, CodingKey { case good }
        override init() { super.init() }
        required init(from decoder: any Decoder) throws { try super.init(from: decoder) }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(good, forKey: .good)
            try super.encode(to: container.superEncoder())
        }
    }

    final class Cat: Animal, @unchecked Sendable {
        // Only touched by the test that made it.
        var lives = 9
        enum Keys: String, CodingKey { case lives }
        override init() { super.init() }
        required init(from decoder: any Decoder) throws { try super.init(from: decoder) }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)  // the same object, continued
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(lives, forKey: .lives)
        }
    }

    @Test func subclassesAndSuperEncoders() throws {
        #expect(try text(Dog()) == #"{"good":true,"super":{"name":"generic"}}"#)
        #expect(try text(Cat()) == #"{"name":"generic","lives":9}"#)
        struct Unused: Encodable {
            enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                _ = container.superEncoder(forKey: .a)
                try container.encode(1, forKey: .b)
            }
        }
        #expect(try text(Unused()) == #"{"a":{},"b":1}"#)
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(try text(["x": Nothing()]) == #"{"x":{}}"#)
        #expect(failure(Nothing())?.code == .unencodableValue)
    }

    /// Writes a nested container after its parent has moved on: not expressible as it goes.
    struct OutOfOrder: Encodable {
        var swallowsErrors = false
        enum Keys: String, CodingKey { case first, second, third }
        enum Inner: String, CodingKey { case x, y }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Inner.self, forKey: .first)
            try nested.encode(1, forKey: .x)
            try container.encode("two", forKey: .second)
            if swallowsErrors {
                try? nested.encode(2, forKey: .y)
            } else {
                try nested.encode(2, forKey: .y)
            }
            try container.encode(Date(timeIntervalSince1970: 1), forKey: .third)
        }
    }

    @Test func modelsThatWriteOutOfOrderTakeTheTreePath() throws {
        let expected = #"{"first":{"x":1,"y":2},"second":"two","third":1.0}"#
        #expect(try text(OutOfOrder(), { $0.dateEncoding = .secondsSince1970 }) == expected)
        #expect(try text(OutOfOrder(swallowsErrors: true), { $0.dateEncoding = .secondsSince1970 }) == expected)
        #expect(
            try text(OutOfOrder(), { $0.keyEncoding = .uppercased })
                == #"{"FIRST":{"X":1,"Y":2},"SECOND":"two","THIRD":"1970-01-01T00:00:01Z"}"#)
    }

    struct Refuses: Encodable {
        struct Problem: Error {}
        func encode(to encoder: any Encoder) throws { throw Problem() }
    }

    @Test func errorsOfTheModelAreUnderlying() throws {
        let error = failure(["a": Refuses()])
        #expect(error?.code == .unencodableValue)
        #expect(error?.underlying is Refuses.Problem)
    }

    final class Tracked: Sendable {}

    /// A model that fails half-way, and one that writes out of order, leave nothing behind:
    /// open encoders hold the writer that lists them.
    @Test func failuresLeaveNothingBehind() throws {
        weak var tracked: Tracked?
        let run = {
            let object = Tracked()
            tracked = object
            var encoder = JSONModelEncoder()
            encoder.userInfo[CodingUserInfoKey(rawValue: "tracked")!] = object
            #expect(throws: SatchelError.self) { try encoder.encode(["a": [["b": Refuses()]]]) }
            #expect((try? encoder.encode(OutOfOrder())) != nil)
        }
        run()
        #expect(tracked == nil)
    }
}
