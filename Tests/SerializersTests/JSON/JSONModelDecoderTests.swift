// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// `JSONModelDecoder`: Foundation's strategies, the reading options, errors with key path and
/// position, and hostile text.
@Suite struct JSONModelDecoderTests {
    func decode<T: Decodable>(
        _ type: T.Type, _ text: String, _ configure: (inout JSONModelDecoder) -> Void = { _ in }
    ) throws -> T {
        var decoder = JSONModelDecoder()
        configure(&decoder)
        return try decoder.decode(type, from: Array(text.utf8))
    }

    func failure<T: Decodable>(
        _ type: T.Type, _ text: String, _ configure: (inout JSONModelDecoder) -> Void = { _ in }
    ) -> SatchelError? {
        satchelError { try decode(type, text, configure) }
    }

    struct Account: Codable, Equatable {
        var userName: String
        var homeUrl: String
        var loginCount: Int
    }

    @Test func keyDecodingStrategies() throws {
        let snake = try decode(
            Account.self, #"{"user_name":"ann","home_url":"x","login_count":3}"#,
            { $0.keyDecoding = .convertFromSnakeCase })
        #expect(snake == Account(userName: "ann", homeUrl: "x", loginCount: 3))
        let kebab = try decode(
            Account.self, #"{"user-name":"b","home-url":"y","login-count":4}"#,
            { $0.keyDecoding = .convertFromKebabCase })
        #expect(kebab == Account(userName: "b", homeUrl: "y", loginCount: 4))
        let custom = try decode(
            Account.self, #"{"USERNAME":"c","HOMEURL":"z","LOGINCOUNT":5}"#,
            { decoder in
                decoder.keyDecoding = .custom { name in
                    ["USERNAME": "userName", "HOMEURL": "homeUrl", "LOGINCOUNT": "loginCount"][name] ?? name
                }
            })
        #expect(custom == Account(userName: "c", homeUrl: "z", loginCount: 5))
        // Without the strategy the converted names are not found.
        let missing = failure(Account.self, #"{"user_name":"ann","home_url":"x","login_count":3}"#)
        #expect(missing?.code == .valueNotFound)
        #expect(missing?.keyPath == "$.userName")
    }

    struct When: Codable { var at: Date }

    @Test func dateDecodingStrategies() throws {
        let epoch = Date(timeIntervalSince1970: 1_000_000_000)
        #expect(try decode(When.self, #"{"at":"2001-09-09T01:46:40Z"}"#).at == epoch)
        #expect(try decode(When.self, #"{"at":1000000000}"#).at == epoch)
        #expect(try decode(When.self, #"{"at":1000000000}"#, { $0.dateDecoding = .secondsSince1970 }).at == epoch)
        #expect(
            try decode(When.self, #"{"at":1000000000000}"#, { $0.dateDecoding = .millisecondsSince1970 }).at == epoch)
        #expect(
            try decode(When.self, #"{"at":0}"#, { $0.dateDecoding = .deferredToDate }).at
                == Date(timeIntervalSinceReferenceDate: 0))
        #expect(
            try decode(When.self, #"{"at":"2001-09-09T01:46:40.5+00:00"}"#, { $0.dateDecoding = .iso8601 }).at
                == epoch.addingTimeInterval(0.5))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd/MM/yyyy HH:mm:ss"
        let formatted = try decode(
            When.self, #"{"at":"09/09/2001 01:46:40"}"#, { $0.dateDecoding = .formatted { formatter.date(from: $0) } })
        #expect(formatted.at == epoch)
        let custom = try decode(
            When.self, #"{"at":{"s":1000000000}}"#,
            { decoder in
                decoder.dateDecoding = .custom { decoder in
                    let seconds = try decoder.container(keyedBy: SecondsKey.self).decode(Double.self, forKey: .s)
                    return Date(timeIntervalSince1970: seconds)
                }
            })
        #expect(custom.at == epoch)

        let notISO = failure(When.self, #"{"at":"yesterday"}"#, { $0.dateDecoding = .iso8601 })
        #expect(notISO?.code == .typeMismatch)
        #expect(notISO?.keyPath == "$.at")
        #expect(notISO?.offset == 6 && notISO?.line == 1 && notISO?.column == 7)
        let notFormatted = failure(
            When.self, #"{"at":"2001"}"#, { $0.dateDecoding = .formatted { formatter.date(from: $0) } })
        #expect(notFormatted?.message == "\"2001\" is not a date in the expected format")
        let stringForSeconds = failure(When.self, #"{"at":"1"}"#, { $0.dateDecoding = .secondsSince1970 })
        #expect(stringForSeconds?.message == "expected a number, found string")
        let customThrows = failure(
            When.self, #"{"at":{"s":"x"}}"#,
            { decoder in
                decoder.dateDecoding = .custom { decoder in
                    let seconds = try decoder.container(keyedBy: SecondsKey.self).decode(Double.self, forKey: .s)
                    return Date(timeIntervalSince1970: seconds)
                }
            })
        #expect(customThrows?.keyPath == "$.at.s")
    }

    enum SecondsKey: String, CodingKey { case s }

    struct Blob: Codable { var bytes: Data }

    @Test func dataDecodingStrategies() throws {
        #expect(try decode(Blob.self, #"{"bytes":"AAEC"}"#).bytes == Data([0, 1, 2]))
        #expect(
            try decode(Blob.self, #"{"bytes":[0,1,255]}"#, { $0.dataDecoding = .deferredToData }).bytes
                == Data([0, 1, 255]))
        let hex = try decode(
            Blob.self, #"{"bytes":"0a0b"}"#,
            { decoder in
                decoder.dataDecoding = .custom { decoder in
                    let text = try decoder.singleValueContainer().decode(String.self)
                    var bytes: [UInt8] = []
                    var index = text.startIndex
                    while index < text.endIndex {
                        let next = text.index(index, offsetBy: 2)
                        bytes.append(UInt8(text[index..<next], radix: 16)!)
                        index = next
                    }
                    return Data(bytes)
                }
            })
        #expect(hex.bytes == Data([10, 11]))
        #expect(failure(Blob.self, #"{"bytes":"%%"}"#)?.message == "the string is not base64")
        let tooBig = failure(Blob.self, #"{"bytes":[1,256]}"#, { $0.dataDecoding = .deferredToData })
        #expect(tooBig?.code == .numberOutOfRange)
        #expect(tooBig?.keyPath == "$.bytes[1]")
    }

    struct Measure: Codable { var value: Double; var single: Float }

    @Test func nonConformingFloats() throws {
        let names: (inout JSONModelDecoder) -> Void = {
            $0.nonConformingFloatDecoding = .convertFromString(
                positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        }
        let infinite = try decode(Measure.self, #"{"value":"+Inf","single":"-Inf"}"#, names)
        #expect(infinite.value == .infinity && infinite.single == -.infinity)
        #expect(try decode(Measure.self, #"{"value":"NaN","single":1}"#, names).value.isNaN)
        #expect(try decode([Double].self, #"[1,"NaN"]"#, names)[1].isNaN)
        #expect(failure(Measure.self, #"{"value":"Inf","single":1}"#, names)?.code == .typeMismatch)
        #expect(failure(Measure.self, #"{"value":"NaN","single":1}"#)?.code == .typeMismatch)
        let overflow = failure(Measure.self, #"{"value":1,"single":1e300}"#)
        #expect(overflow?.code == .numberOutOfRange)
        #expect(overflow?.keyPath == "$.single")
        #expect(failure(Measure.self, #"{"value":1e400,"single":1}"#)?.code == .numberOutOfRange)
    }

    struct Exact: Codable, Equatable {
        var price: Decimal
        var big: UInt64
        var small: Int64
        var third: Double
    }

    @Test func numbersAreExact() throws {
        let exact = try decode(
            Exact.self,
            #"{"price":12345678901234567890.123456789,"big":18446744073709551615,"small":-9223372036854775808,"third":0.333333333333333314829616256247390992939472198486328125}"#
        )
        #expect(exact.price == Decimal(string: "12345678901234567890.123456789"))
        #expect(exact.big == .max && exact.small == .min)
        #expect(exact.third == 1.0 / 3.0)
        // Doubles that need correct rounding beyond the fast path.
        for text in ["2.2250738585072011e-308", "9007199254740993", "0.1", "1e23", "-65.613616999999977", "5e-324"] {
            #expect(try decode([Double].self, "[\(text)]") == [Double(text)!], "\(text)")
        }
        #expect(try decode(Int.self, "2.0") == 2)
        #expect(try decode(Int.self, "1e2") == 100)
        #expect(failure(Int.self, "2.5")?.message == "2.5 does not fit in Int")
        #expect(failure(UInt.self, "-1")?.code == .numberOutOfRange)
        #expect(try decode(UInt.self, "-0") == 0)
        #expect(failure(Int8.self, "-129")?.message == "-129 does not fit in Int8")
        #expect(try decode(Int8.self, "-128") == -128)
    }

    @Test func bigIntegersFollowTheReadingOption() throws {
        let huge = "123456789012345678901234567890"
        #expect(failure(Double.self, huge)?.code == .numberOutOfRange)
        var asDouble = JSONReadingOptions()
        asDouble.bigIntegers = .double
        #expect(try decode(Double.self, huge, { $0.options = asDouble }) == 1.2345678901234568e29)
        #expect(failure(Int64.self, huge, { $0.options = asDouble })?.code == .numberOutOfRange)
        var asString = JSONReadingOptions()
        asString.bigIntegers = .string
        #expect(try decode(String.self, huge, { $0.options = asString }) == huge)
        #expect(try decode(Value.self, "[\(huge)]", { $0.options = asString }) == [.string(huge)])
        #expect(failure(Double.self, huge, { $0.options = asString })?.message == "expected a number, found string")
    }

    struct Pair: Codable, Equatable {
        var a: Int
        var b: Int?
    }

    @Test func duplicateNamesLastWinsAsInTheValueTree() throws {
        let text = #"{"a":1,"b":2,"a":3}"#
        #expect(try decode(Pair.self, text) == Pair(a: 3, b: 2))
        #expect(try decode([String: Int].self, text) == ["a": 3, "b": 2])
        let value = try decode(Value.self, text)
        #expect(value == (try JSONReader().read(Array(text.utf8))))
        // Keys read out of document order, and again after the cursor moved on.
        struct Reversed: Decodable, Equatable {
            var values: [Int]
            enum Keys: String, CodingKey { case a, b, c }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                values = try [.c, .a, .b, .c, .a].map { try container.decode(Int.self, forKey: $0) }
            }
        }
        #expect(try decode(Reversed.self, #"{"a":1,"b":2,"c":3,"a":4}"#).values == [3, 4, 2, 3, 4])
    }

    @Test func escapedNamesAndStrings() throws {
        #expect(try decode([String: String].self, #"{"a\u0062":"\u00e9\n\ud83d\ude00\/"}"#) == ["ab": "é\n😀/"])
        #expect(try decode(Pair.self, #"{"\u0061":1}"#) == Pair(a: 1, b: nil))
        #expect(try decode([String: Int].self, #"{"a\u0000b":1}"#) == ["a\u{0}b": 1])
        // The lexer's rule for names with both U+0000 and U+FDD0 still holds.
        let noncharacter = String(Character(Unicode.Scalar(0xFDD0 as UInt32)!))
        #expect(failure([String: Int].self, "{\"a\\u0000\":1,\"\(noncharacter)\":2}")?.code == .invalidArgument)
    }

    @Test func removesKeysWithNullValues() throws {
        var options = JSONReadingOptions()
        options.removesKeysWithNullValues = true
        let configure: (inout JSONModelDecoder) -> Void = { $0.options = options }
        #expect(try decode(Pair.self, #"{"a":1,"b":null}"#, configure) == Pair(a: 1, b: nil))
        #expect(try decode([Int].self, "[null,1,null,2,null]", configure) == [1, 2])
        #expect(try decode([String: Int?].self, #"{"x":null,"y":1}"#, configure) == ["y": 1])
        #expect(failure(Pair.self, #"{"a":null}"#, configure)?.code == .valueNotFound)
        // With duplicate names the last value decides, for `allKeys` as for look-ups.
        #expect(try decode([String: Bool].self, #"{"z":true,"f":false,"z":null}"#, configure) == ["f": false])
        #expect(try decode([String: Bool?].self, #"{"z":null,"z":true}"#, configure) == ["z": true])
    }

    @Test func readingOptionsAndLimits() throws {
        var objectsOnly = JSONReadingOptions()
        objectsOnly.allowsTopLevelScalars = false
        #expect(failure(Int.self, "1", { $0.options = objectsOnly })?.code == .syntaxError)
        #expect(try decode(Int.self, " 1 ") == 1)
        #expect(try decode([Int].self, "\u{FEFF}[1]") == [1])  // a byte order mark is skipped
        #expect(
            failure([String: Int].self, #"{"a":1,"b":2}"#, { $0.limits = Limits(maxPairs: 1) })?.limit == "maxPairs")
        #expect(failure([[Int]].self, "[[1]]", { $0.limits = Limits(maxDepth: 1) })?.limit == "maxDepth")
        #expect(
            failure(String.self, #""abcdef""#, { $0.limits = Limits(maxStringBytes: 5) })?.limit == "maxStringBytes")
        // Escapes count as the bytes they stand for: over the limit in raw bytes, within it decoded.
        #expect(try decode(String.self, #""\n\n\n\n\n""#, { $0.limits = Limits(maxStringBytes: 5) }) == "\n\n\n\n\n")
        #expect(failure([Int].self, "[1,2]", { $0.limits = Limits(maxBodyBytes: 4) })?.limit == "maxBodyBytes")
    }

    @Test func malformedTextGivesTheReadersError() throws {
        for text in ["", " ", "[1,]", "{\"a\":1", "[01]", "\"\u{1}\"", "[\"\\ud800\"]", "nul", "[1] x", "{'a':1}"] {
            let typed = failure(Value.self, text)
            let reader = satchelError { try JSONReader().read(Array(text.utf8)) }
            #expect(typed?.code == reader?.code, "\(text)")
            #expect(typed?.offset == reader?.offset, "\(text)")
            #expect(typed?.message == reader?.message, "\(text)")
        }
        let invalidUTF8: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(
            satchelError { try JSONModelDecoder().decode([String: String].self, from: invalidUTF8) }?.code
                == .invalidEncoding)
    }

    struct Node: Decodable { var child: [Node] }

    @Test func hostileText() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(Value.self, deep)?.limit == "maxDepth")
        let deepObjects = String(repeating: #"{"child":["#, count: 50_000)
        #expect(failure(Node.self, deepObjects)?.limit == "maxDepth")
        let long = "\"" + String(repeating: "a", count: Limits.default.maxStringBytes + 1) + "\""
        #expect(failure(String.self, long)?.limit == "maxStringBytes")
        let manyMembers = "{" + (0..<2_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        #expect(failure([String: Int].self, manyMembers, { $0.limits = Limits(maxPairs: 1_000) })?.limit == "maxPairs")
        for cut in [1, 5, 9, 14] {
            let truncated = String(#"{"a":[1,2,"x"]}"#.prefix(cut))
            #expect(failure(Value.self, truncated)?.code == .truncatedInput, "\(truncated)")
        }
    }

    /// A type that keeps its decoder, to read later.
    final class Kept: Decodable, @unchecked Sendable {
        // Only touched by the test that made it.
        let decoder: any Decoder
        init(from decoder: any Decoder) throws { self.decoder = decoder }
    }

    /// One decoder for the records of a stream keeps its scanning buffers between decodes; a
    /// record after a failure, after a document too large to keep, after a model that kept its
    /// decoder (whose view must not change), and copies of it decoding at once all read as alone.
    @Test func oneDecoderReadsManyRecordsAsEachAlone() async throws {
        let decoder = JSONModelDecoder()
        func record(_ id: Int) -> [UInt8] { Array(#"{"id":\#(id),"name":"n\#(id)"}"#.utf8) }
        #expect(try decoder.decode(Item.self, from: record(1)).id == 1)
        #expect(
            satchelError { try decoder.decode(Item.self, from: Array(#"{"id":2,"name":"#.utf8)) }?.code
                == .truncatedInput)
        #expect(try decoder.decode(Item.self, from: record(3)).name == "n3")
        // A record only the lexer can judge (a `\u0000` in a name), then a record deeper than allowed.
        #expect(try decoder.decode([String: Int].self, from: Array(#"{"a\u0000b":1}"#.utf8)) == ["a\u{0}b": 1])
        let deep = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        #expect(satchelError { try decoder.decode(Value.self, from: deep) }?.limit == "maxDepth")
        #expect(try decoder.decode(Item.self, from: record(3)).id == 3)
        let large = "[" + (0..<40_000).map(String.init).joined(separator: ",") + "]"
        #expect(try decoder.decode([Int].self, from: Array(large.utf8)).count == 40_000)
        let kept = try decoder.decode(Kept.self, from: record(4))
        for id in 5..<10 { #expect(try decoder.decode(Item.self, from: record(id)).id == id) }
        enum Keys: String, CodingKey { case id, name }
        let container = try kept.decoder.container(keyedBy: Keys.self)
        #expect(try container.decode(Int.self, forKey: .id) == 4)
        #expect(try container.decode(String.self, forKey: .name) == "n4")
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                let copy = decoder
                group.addTask {
                    var sum = 0
                    for id in 0..<500 { sum += try copy.decode(Item.self, from: record(task * 1_000 + id)).id }
                    return sum
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sums.sorted() == (0..<4).map { task in (0..<500).reduce(0) { $0 + task * 1_000 + $1 } })
    }

    struct Order: Codable { var items: [Item] }
    struct Item: Codable { var id: Int; var name: String }

    @Test func mismatchesNameKeyPathOffsetLineAndColumn() throws {
        let text = "{\"items\":[\n  {\"id\":1,\"name\":\"a\"},\n  {\"id\":\"2\",\"name\":\"b\"}\n]}"
        let error = failure(Order.self, text)
        #expect(error?.code == .typeMismatch)
        #expect(error?.keyPath == "$.items[1].id")
        #expect(error?.message == "expected an integer, found string")
        #expect(error?.line == 3 && error?.column == 9)
        let missing = failure(Order.self, #"{"items":[{"id":1}]}"#)
        #expect(missing?.code == .valueNotFound)
        #expect(missing?.keyPath == "$.items[0].name")
        #expect(missing?.offset == 10)
        let thrownByTheModel = failure(Positive.self, #"{"n":-1}"#)
        #expect(thrownByTheModel?.keyPath == "$.n")
    }

    struct Positive: Decodable {
        var n: Int
        enum Keys: String, CodingKey { case n }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            n = try container.decode(Int.self, forKey: .n)
            guard n > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .n, in: container, debugDescription: "not positive")
            }
        }
    }

    class Base: Decodable { var id = 0 }
    final class Derived: Base, @unchecked Sendable {
        // Only touched by the test that made it.
        var extra = ""
        enum Keys: String, CodingKey { case extra }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            extra = try container.decode(String.self, forKey: .extra)
            try super.init(from: container.superDecoder())
        }
    }

    @Test func userInfoAndSuperDecoder() throws {
        struct Reader: Decodable {
            var flag: Bool
            init(from decoder: any Decoder) throws {
                flag = decoder.userInfo[CodingUserInfoKey(rawValue: "flag")!] as? Bool ?? false
            }
        }
        let key = CodingUserInfoKey(rawValue: "flag")!
        #expect(try decode(Reader.self, "{}", { $0.userInfo[key] = true }).flag)
        let derived = try decode(Derived.self, #"{"extra":"x","super":{"id":7}}"#)
        #expect(derived.extra == "x" && derived.id == 7)
        #expect(failure(Derived.self, #"{"extra":"x"}"#)?.code == .valueNotFound)
    }

    @Test func modelsThatReadOutOfOrderOrTwice() throws {
        struct Twice: Decodable {
            var first: [Int]
            var second: [Int?]
            enum Keys: String, CodingKey { case list }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                var unkeyed = try container.nestedUnkeyedContainer(forKey: .list)
                var values: [Int] = []
                while !unkeyed.isAtEnd {
                    if try unkeyed.decodeNil() { continue }
                    values.append(try unkeyed.decode(Int.self))
                }
                first = values
                second = try container.decode([Int?].self, forKey: .list)
            }
        }
        let twice = try decode(Twice.self, #"{"list":[1,null,2]}"#)
        #expect(twice.first == [1, 2] && twice.second == [1, nil, 2])
        #expect(failure(Twice.self, #"{"list":[1,"x"]}"#)?.keyPath == "$.list[1]")
    }
}
