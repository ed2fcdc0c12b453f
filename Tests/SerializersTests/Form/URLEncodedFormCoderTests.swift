// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

@Suite("URLEncodedFormEncoder and URLEncodedFormDecoder")
struct URLEncodedFormCoderTests {
    struct Address: Codable, Equatable {
        var city: String
        var postCode: Int
    }

    struct Profile: Codable, Equatable {
        var userName: String
        var age: Int
        var score: Double
        var isAdmin: Bool
        var tags: [String]
        var address: Address
        var nickname: String?
    }

    static let profile = Profile(
        userName: "Ann Lee", age: 41, score: 2.5, isAdmin: true, tags: ["a", "b&c"],
        address: Address(city: "Oslo", postCode: 150), nickname: nil)

    /// The pairs of form text, unescaped by Python's `urllib.parse.parse_qsl` (the peer).
    static func pythonPairs(_ text: String) throws -> [[String]] {
        let script = """
            import json, sys, urllib.parse
            print(json.dumps(urllib.parse.parse_qsl(sys.argv[1], keep_blank_values=True, strict_parsing=True)))
            """
        let (status, output) = try VenvPython.run(script, [text])
        try #require(status == 0)
        return try JSONDecoder().decode([[String]].self, from: Data(output.utf8))
    }

    @Test("defaults: AFNetworking's shape, sorted, brackets, numeric booleans, nil left out")
    func defaultEncoding() throws {
        let text = try URLEncodedFormEncoder().encode(Self.profile)
        #expect(
            text
                == "address%5Bcity%5D=Oslo&address%5BpostCode%5D=150&age=41&isAdmin=1&score=2.5&tags%5B%5D=a&tags%5B%5D=b%26c&userName=Ann%20Lee"
        )
        #expect(
            try Self.pythonPairs(text) == [
                ["address[city]", "Oslo"], ["address[postCode]", "150"], ["age", "41"], ["isAdmin", "1"],
                ["score", "2.5"], ["tags[]", "a"], ["tags[]", "b&c"], ["userName", "Ann Lee"],
            ])
    }

    @Test("array, bool, key, nil and space encodings, and the model's order")
    func options() throws {
        var encoder = URLEncodedFormEncoder()
        encoder.arrayEncoding = .indexed
        encoder.boolEncoding = .literal
        encoder.keyEncoding = .convertToSnakeCase
        encoder.nilEncoding = .dropValue
        encoder.spaceEncoding = .plus
        encoder.alphabetizeKeyValuePairs = false
        let text = try encoder.encode(Self.profile)
        #expect(
            try Self.pythonPairs(text) == [
                ["user_name", "Ann Lee"], ["age", "41"], ["score", "2.5"], ["is_admin", "true"], ["tags[0]", "a"],
                ["tags[1]", "b&c"], ["address[city]", "Oslo"], ["address[post_code]", "150"], ["nickname", ""],
            ])
        #expect(text.contains("user_name=Ann+Lee"))
        encoder.arrayEncoding = .noBrackets
        encoder.nilEncoding = .null
        encoder.keyEncoding = .convertToKebabCase
        #expect(
            try Self.pythonPairs(encoder.encode(Self.profile)).filter { $0[0] == "tags" || $0[0] == "nickname" } == [
                ["tags", "a"], ["tags", "b&c"], ["nickname", "null"],
            ])
        #expect(try encoder.encode(Self.profile).contains("is-admin=true"))
        for (strategy, key) in [
            (URLEncodedFormEncoder.KeyEncoding.capitalized, "UserName"), (.uppercased, "USERNAME"),
            (.lowercased, "username"), (.custom({ "x_" + $0 }), "x_userName"),
        ] {
            var keyed = URLEncodedFormEncoder()
            keyed.keyEncoding = strategy
            #expect(try keyed.encode(Self.profile).contains("\(key)=Ann%20Lee"), "\(strategy)")
        }
    }

    @Test("snake and kebab case convert as Foundation's strategies do")
    func keyCases() {
        for (camel, snake) in [
            ("myURLProperty", "my_url_property"), ("userName", "user_name"), ("a", "a"), ("ABC", "abc"),
            ("version2Name", "version2_name"), ("_private", "_private"),
        ] {
            #expect(KeyCase.separated(camel, by: "_") == snake, "\(camel)")
        }
        #expect(KeyCase.separated("myURLProperty", by: "-") == "my-url-property")
        for (snake, camel) in [
            ("my_url_property", "myUrlProperty"), ("user_name", "userName"), ("_private_key_", "_privateKey_"),
            ("plain", "plain"), ("__", "__"),
        ] {
            #expect(KeyCase.camelCased(snake, from: "_") == camel, "\(snake)")
        }
    }

    struct Stamped: Codable, Equatable {
        var at: Date
        var blob: Data
    }

    @Test("date and data strategies, both ways")
    func datesAndData() throws {
        let stamped = Stamped(at: Date(timeIntervalSince1970: 1_764_100_000.5), blob: Data([0, 1, 250]))
        let cases: [(URLEncodedFormEncoder.DateEncoding, URLEncodedFormDecoder.DateDecoding, String)] = [
            (.deferredToDate, .deferredToDate, "at=785792800.5"),
            (.secondsSince1970, .secondsSince1970, "at=1764100000.5"),
            (.millisecondsSince1970, .millisecondsSince1970, "at=1764100000500"),
            (.iso8601, .iso8601, "at=2025-11-25T19%3A46%3A40.500Z"),
            (
                .custom({ "t\(Int($0.timeIntervalSince1970 * 2))" }),
                .custom({ Date(timeIntervalSince1970: Double($0.dropFirst())! / 2) }), "at=t3528200001"
            ),
        ]
        for (encoding, decoding, expected) in cases {
            var encoder = URLEncodedFormEncoder()
            encoder.dateEncoding = encoding
            let text = try encoder.encode(stamped)
            #expect(text.hasPrefix(expected + "&blob=AAH6"), "\(text)")
            var decoder = URLEncodedFormDecoder()
            decoder.dateDecoding = decoding
            #expect(try decoder.decode(Stamped.self, from: text) == stamped, "\(text)")
        }
        var encoder = URLEncodedFormEncoder()
        encoder.dataEncoding = .custom { $0.map { String($0) }.joined(separator: ".") }
        #expect(try encoder.encode(stamped).hasSuffix("&blob=0.1.250"))
        var decoder = URLEncodedFormDecoder()
        decoder.dataDecoding = .custom { Data($0.split(separator: ".").map { UInt8($0)! }) }
        #expect(try decoder.decode(Stamped.self, from: "at=785792800.5&blob=0.1.250") == stamped)
        encoder.dataEncoding = .deferredToData
        #expect(try encoder.encode(stamped).hasSuffix("&blob%5B%5D=0&blob%5B%5D=1&blob%5B%5D=250"))
    }

    @Test("decoding reads numbers and booleans from text, arrays in every style, empty as absent")
    func decoding() throws {
        let decoder = URLEncodedFormDecoder()
        let expected = Profile(
            userName: "Ann Lee", age: 41, score: 2.5, isAdmin: true, tags: ["a", "b&c"],
            address: Address(city: "Oslo", postCode: 150), nickname: nil)
        for text in [
            try URLEncodedFormEncoder().encode(Self.profile),
            "userName=Ann+Lee&age=41&score=2.5&isAdmin=on&tags=a&tags=b%26c&address[city]=Oslo&address[postCode]=150",
            "userName=Ann%20Lee&age=%2B41&score=25e-1&isAdmin=TRUE&tags[1]=b%26c&tags[0]=a&address%5Bcity%5D=Oslo&address%5BpostCode%5D=150&nickname=",
        ] {
            #expect(try decoder.decode(Profile.self, from: text) == expected, "\(text)")
        }
        struct One: Decodable, Equatable {
            var ids: [Int]
            var flags: [Bool]?
        }
        #expect(try decoder.decode(One.self, from: "ids=7") == One(ids: [7], flags: nil))
        #expect(try decoder.decode(One.self, from: "ids=&flags[]=0&flags[]=yes") == One(ids: [], flags: [false, true]))
        var snake = URLEncodedFormDecoder()
        snake.keyDecoding = .convertFromSnakeCase
        #expect(
            try snake.decode(
                Address.self, from: "city=Oslo&post_code=150") == Address(city: "Oslo", postCode: 150))
        var kebab = URLEncodedFormDecoder()
        kebab.keyDecoding = .convertFromKebabCase
        #expect(try kebab.decode(Address.self, from: "city=Oslo&post-code=1") == Address(city: "Oslo", postCode: 1))
        var custom = URLEncodedFormDecoder()
        custom.keyDecoding = .custom { $0 == "zip" ? "postCode" : $0 }
        #expect(try custom.decode(Address.self, from: "city=Oslo&zip=2") == Address(city: "Oslo", postCode: 2))
    }

    @Test("errors name the key path, the text and the offset")
    func errors() throws {
        let decoder = URLEncodedFormDecoder()
        let cases: [(String, SatchelError.Code, String)] = [
            ("city=Oslo&postCode=12a", .typeMismatch, "$.postCode"),
            ("city=Oslo&postCode=99999999999999999999", .numberOutOfRange, "$.postCode"),
            ("city=Oslo", .valueNotFound, "$.postCode"),
            ("city=Oslo&postCode=", .valueNotFound, "$.postCode"),
            ("city=Oslo&postCode=1.5", .typeMismatch, "$.postCode"),
        ]
        for (text, code, keyPath) in cases {
            let error = try #require(throws: SatchelError.self) { try decoder.decode(Address.self, from: text) }
            #expect(error.code == code, "\(text): \(error)")
            #expect(error.keyPath == keyPath, "\(text): \(error)")
        }
        let flag = try #require(throws: SatchelError.self) {
            try decoder.decode(
                Profile.self, from: "userName=a&age=1&score=1&isAdmin=maybe&tags=&address[city]=x&address[postCode]=1")
        }
        #expect(
            flag.code == .typeMismatch && flag.keyPath == "$.isAdmin" && flag.message.contains("\"maybe\""), "\(flag)")
        let nested = try #require(throws: SatchelError.self) {
            try decoder.decode(Profile.self, from: "userName=a&age=1&score=x&isAdmin=1&tags=&address[city]=x")
        }
        #expect(nested.keyPath == "$.score")
        let deep = try #require(throws: SatchelError.self) {
            try decoder.decode(Profile.self, from: "userName=a&age=1&score=1&isAdmin=1&tags=&address[city]=x")
        }
        #expect(deep.code == .valueNotFound && deep.keyPath == "$.address.postCode", "\(deep)")
        let syntax = try #require(throws: SatchelError.self) {
            try decoder.decode(Address.self, from: "city=Oslo&a[=1")
        }
        #expect(syntax.code == .syntaxError && syntax.offset == 11, "\(syntax) at \(String(describing: syntax.offset))")
        let date = try #require(throws: SatchelError.self) {
            try URLEncodedFormDecoder().decode(Stamped.self, from: "at=soon&blob=AA==")
        }
        #expect(
            date.code == .typeMismatch && date.keyPath == "$.at" && date.message.contains("not a number"), "\(date)")
        var limited = URLEncodedFormDecoder()
        limited.limits.maxPairs = 2
        let limit = try #require(throws: SatchelError.self) { try limited.decode(Address.self, from: "a=1&b=2&c=3") }
        #expect(limit.code == .limitExceeded)
        // Not keyed: a form cannot hold it.
        let scalar = try #require(throws: SatchelError.self) { try URLEncodedFormEncoder().encode([1, 2]) }
        #expect(scalar.code == .unencodableValue && scalar.message.contains("array"))
        var failing = URLEncodedFormEncoder()
        struct Nope: Error {}
        failing.dateEncoding = .custom { _ in throw Nope() }
        let thrown = try #require(throws: SatchelError.self) { try failing.encode(Stamped(at: Date(), blob: Data())) }
        #expect(thrown.code == .unencodableValue)
    }
}
