// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// `JSONReader.read(_:from:)` decodes from an index of the text (`JSONModelDecoder`); these check
/// it agrees with the `Value` path (`ValueDecoder`) and reports errors with their key paths.
@Suite struct JSONDecodableTests {
    struct Everything: Codable, Equatable {
        var flag: Bool
        var small: Int8
        var large: UInt64
        var negative: Int64
        var ratio: Float
        var precise: Double
        var integralDouble: Int
        var text: String
        var optionalMissing: String?
        var optionalNull: Int?
        var when: Date
        var blob: Data
        var link: URL
        var anything: Value
        var nested: [[Int]]
        var map: [String: Double]
    }

    static let text = #"""
        {"flag":true,"small":-128,"large":18446744073709551615,"negative":-9223372036854775808,
         "ratio":0.5,"precise":0.1,"integralDouble":2.0,"text":"é\u0000x","optionalNull":null,
         "when":"2001-01-01T00:00:00Z","blob":"AAEC","link":"https://example.com/a?b=c",
         "anything":{"k":[1,"two",null]},"nested":[[1,2],[],[3]],"map":{"a":1,"b":2.5}}
        """#

    @Test func agreesWithTheValuePath() throws {
        let bytes = Array(Self.text.utf8)
        let direct = try JSONReader().read(Everything.self, from: bytes)
        let throughValue = try ValueDecoder().decode(Everything.self, from: JSONReader().read(bytes))
        #expect(direct == throughValue)
        #expect(direct.large == UInt64.max)
        #expect(direct.negative == Int64.min)
        #expect(direct.integralDouble == 2)
        #expect(direct.text == "é\u{0}x")
        #expect(direct.optionalMissing == nil && direct.optionalNull == nil)
        #expect(direct.when == Date(timeIntervalSince1970: 978_307_200))
        #expect(direct.blob == Data([0, 1, 2]))
        #expect(direct.anything == ["k": [1, "two", nil]])
        #expect(direct.map == ["a": 1, "b": 2.5])
    }

    func failure<T: Decodable>(_ type: T.Type, _ text: String, limits: Limits = .default) -> SatchelError? {
        satchelError { try JSONReader(limits: limits).read(type, from: Array(text.utf8)) }
    }

    struct Holder<T: Codable>: Codable { var items: [T] }

    @Test func errorsNameTheKeyPath() throws {
        let overflow = failure(Holder<Int8>.self, #"{"items":[1,2,300]}"#)
        #expect(overflow?.code == .numberOutOfRange)
        #expect(overflow?.keyPath == "$.items[2]")
        let fraction = failure(Holder<Int>.self, #"{"items":[2.5]}"#)
        #expect(fraction?.code == .numberOutOfRange)
        let wrongKind = failure(Holder<String>.self, #"{"items":["a",{}]}"#)
        #expect(wrongKind?.code == .typeMismatch)
        #expect(wrongKind?.keyPath == "$.items[1]")
        let null = failure(Holder<String>.self, #"{"items":[null]}"#)
        #expect(null?.code == .valueNotFound)
        let missing = failure(Holder<String>.self, #"{"things":[]}"#)
        #expect(missing?.code == .valueNotFound)
        #expect(missing?.keyPath == "$.items")
        let badDate = failure(Holder<Date>.self, #"{"items":["2001-01-01T00:00:00Z","yesterday"]}"#)
        #expect(badDate?.code == .typeMismatch)
        #expect(badDate?.keyPath == "$.items[1]")
        let tooMany = failure([String: Int].self, #"{"a":1,"b":2,"c":3}"#, limits: Limits(maxPairs: 2))
        #expect(tooMany?.limit == "maxPairs")
        let syntax = failure(Holder<Int>.self, "{\"items\":\n[1,}")
        #expect(syntax?.code == .syntaxError)
        #expect(syntax?.line == 2)
    }

    struct Scalars: Codable, Equatable {
        var doubles: [Double]
        var ints: [Int]
        var int64s: [Int64]
        var bools: [Bool]
        var strings: [String]
        var rings: [[Double]]
        var maybeText: String?
        var maybeCount: Int?
        var maybeRatio: Double?
        var maybeFlag: Bool?
    }

    /// Scalars and arrays of them take a fast path past the `Decodable` machinery, and optional
    /// scalars one look-up; values and errors must be those of the general path.
    @Test func fastPathsAgreeWithTheGeneralPath() throws {
        let text = #"""
            {"doubles":[1,2.5,-0.0,1e300,18446744073709551615],"ints":[0,-9223372036854775808,3.0],
             "int64s":[9223372036854775807],"bools":[true,false],"strings":["","é","\u0000"],
             "rings":[[1.5,2],[]],"maybeText":"x","maybeCount":null,"maybeFlag":false}
            """#
        let bytes = Array(text.utf8)
        let direct = try JSONReader().read(Scalars.self, from: bytes)
        #expect(direct == (try ValueDecoder().decode(Scalars.self, from: JSONReader().read(bytes))))
        #expect(direct.doubles[4] == 18446744073709551615.0 && direct.ints[2] == 3 && direct.maybeCount == nil)

        let good = #""doubles":[],"ints":[],"int64s":[],"bools":[],"strings":[],"rings":[]"#
        let cases: [(String, SatchelError.Code, String, String)] = [
            (
                #"{"doubles":[1,"2"],"ints":[],"int64s":[],"bools":[],"strings":[],"rings":[]}"#,
                .typeMismatch, "$.doubles[1]", "expected a number, found string"
            ),
            (
                #"{"doubles":[1e400],"ints":[],"int64s":[],"bools":[],"strings":[],"rings":[]}"#,
                .numberOutOfRange, "", ""
            ),
            (
                #"{"doubles":[],"ints":[1,null],"int64s":[],"bools":[],"strings":[],"rings":[]}"#,
                .valueNotFound, "$.ints[1]", "expected an integer, found null"
            ),
            (
                #"{"doubles":[],"ints":[],"int64s":[1,2,3.5],"bools":[],"strings":[],"rings":[]}"#,
                .numberOutOfRange, "$.int64s[2]", "3.5 does not fit in Int64"
            ),
            (
                #"{"doubles":[],"ints":[],"int64s":[],"bools":[1],"strings":[],"rings":[]}"#,
                .typeMismatch, "$.bools[0]", "expected a bool, found integer"
            ),
            (
                #"{"doubles":[],"ints":[],"int64s":[],"bools":[],"strings":{},"rings":[]}"#,
                .typeMismatch, "$.strings", "expected an array, found object"
            ),
            (
                #"{"doubles":[],"ints":[],"int64s":[],"bools":[],"strings":[],"rings":[[1],[true]]}"#,
                .typeMismatch, "$.rings[1][0]", "expected a number, found bool"
            ),
            ("{\(good),\"maybeText\":1}", .typeMismatch, "$.maybeText", "expected a string, found integer"),
            ("{\(good),\"maybeCount\":1.5}", .numberOutOfRange, "$.maybeCount", "1.5 does not fit in Int"),
            ("{\(good),\"maybeRatio\":[]}", .typeMismatch, "$.maybeRatio", "expected a number, found array"),
            ("{\(good),\"maybeFlag\":\"no\"}", .typeMismatch, "$.maybeFlag", "expected a bool, found string"),
        ]
        for (document, code, keyPath, message) in cases {
            let error = failure(Scalars.self, document)
            #expect(error?.code == code, "\(document)")
            if !keyPath.isEmpty { #expect(error?.keyPath == keyPath, "\(document)") }
            if !message.isEmpty { #expect(error?.message == message, "\(document)") }
        }
    }

    struct Named: Codable, Equatable {
        var name: String?
        var count: Int
    }

    @Test func optionsThatNeedTheValuePathStillApply() throws {
        var options = JSONReadingOptions()
        options.removesKeysWithNullValues = true
        let decoded = try JSONReader(options: options).read(Named.self, from: Array(#"{"name":null,"count":1}"#.utf8))
        #expect(decoded == Named(name: nil, count: 1))
        let keyed = try JSONReader().read([String: Int].self, from: Array(#"{"a\u0000b":1}"#.utf8))
        #expect(keyed == ["a\u{0}b": 1])
    }

    /// A type that keeps its decoder and reads from it later must still see the document: the
    /// text and its index live as long as any decoder over them.
    final class Deferred: Decodable, @unchecked Sendable {
        // Only touched by the test that made it.
        let decoder: any Decoder
        init(from decoder: any Decoder) throws { self.decoder = decoder }
    }

    enum NameKey: String, CodingKey { case name, tags }

    @Test func aKeptDecoderKeepsTheTreeAlive() throws {
        let deferred = try JSONReader().read(Deferred.self, from: Array(#"{"name":"Ann","tags":["a","b"]}"#.utf8))
        for _ in 0..<3 {  // churn the allocator so a freed tree would be reused
            _ = try JSONReader().read(Array(#"{"other":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","n":[1,2,3]}"#.utf8))
        }
        let container = try deferred.decoder.container(keyedBy: NameKey.self)
        #expect(try container.decode(String.self, forKey: .name) == "Ann")
        #expect(try container.decode([String].self, forKey: .tags) == ["a", "b"])
    }

    /// The decoder reads the caller's buffer in place; a model that keeps its decoder gets a
    /// copy before the call returns, so overwriting and freeing the buffer afterwards changes
    /// nothing for it (AddressSanitizer, in the sanitized run, sees any read of the freed one).
    @Test func aKeptDecoderOutlivesTheCallersBuffer() throws {
        let json = Array(#"{"name":"Ann","tags":["a","b"]}"#.utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: json.count, alignment: 1)
        json.withUnsafeBytes { buffer.copyMemory(from: $0) }
        let deferred = try JSONModelDecoder().decode(Deferred.self, from: UnsafeRawBufferPointer(buffer))
        let plain = try JSONModelDecoder().decode(Named.self, from: Array(#"{"name":"Bo","count":2}"#.utf8))
        buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
        buffer.deallocate()
        let container = try deferred.decoder.container(keyedBy: NameKey.self)
        #expect(try container.decode(String.self, forKey: .name) == "Ann")
        #expect(try container.decode([String].self, forKey: .tags) == ["a", "b"])
        #expect(plain == Named(name: "Bo", count: 2))
    }

    /// An empty body is JSON text that ended before its value: the direct typed decode says so
    /// (the response path, ``JSONResponseSerializer/decode(_:contentType:limits:)``, reads a blank
    /// body as no value instead).
    @Test func anEmptyBodyIsTruncatedInput() throws {
        let error = try #require(throws: SatchelError.self) {
            try JSONResponseSerializer().decode(Named.self, from: [], limits: .default)
        }
        #expect(error.code == .truncatedInput, "\(error)")
    }
}
