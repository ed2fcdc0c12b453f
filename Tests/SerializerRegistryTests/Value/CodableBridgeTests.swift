// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Testing

@Suite struct CodableBridgeTests {
    struct Account: Codable, Equatable {
        enum Kind: String, Codable { case personal, business }

        var id: UInt64
        var balance: Int64
        var ratio: Double
        var ratioSingle: Float
        var small: Int8
        var name: String
        var kind: Kind
        var tags: [String]
        var limits: [String: Int]
        var nickname: String?
        var opened: Date
        var avatar: Data
        var site: URL
        var extra: Value
        var matrix: [[Int]]
    }

    static let account = Account(
        id: UInt64.max, balance: Int64.min, ratio: 0.1, ratioSingle: 1.5, small: -128, name: "Ann",
        kind: .business, tags: ["b", "a"], limits: ["daily": 5], nickname: nil,
        opened: Date(timeIntervalSince1970: 1_000_000_000), avatar: Data([1, 2, 3]),
        site: URL(string: "https://example.com/ann")!, extra: ["nested": [1, nil]], matrix: [[1, 2], []])

    @Test func encodesIntoTheNativeKinds() throws {
        let value = try ValueEncoder().encode(Self.account)
        #expect(value["id"] == .unsignedInteger(UInt64.max))
        #expect(value["balance"] == .integer(Int64.min))
        #expect(value["ratio"] == .double(0.1))
        #expect(value["kind"] == "business")
        #expect(value["tags"] == ["b", "a"])
        #expect(value["limits"] == ["daily": 5])
        #expect(value["nickname"] == nil, "encodeIfPresent leaves a nil optional out")
        #expect(value["opened"] == .date(Date(timeIntervalSince1970: 1_000_000_000)))
        #expect(value["avatar"] == .bytes([1, 2, 3]))
        #expect(value["site"] == "https://example.com/ann")
        #expect(value["extra"] == ["nested": [1, nil]])
        #expect(value["matrix"] == [[1, 2], []])
        // Members keep the order in which the type encoded them.
        #expect(Array(value.objectValue?.keys ?? []).prefix(3) == ["id", "balance", "ratio"])
    }

    @Test func roundTrips() throws {
        let value = try ValueEncoder().encode(Self.account)
        #expect(try ValueDecoder().decode(Account.self, from: value) == Self.account)
    }

    @Test func decodesFromTextualForms() throws {
        struct Stamped: Decodable { var when: Date; var blob: Data; var count: Int; var share: Float }
        let decoded = try ValueDecoder().decode(
            Stamped.self, from: ["when": "2001-09-09T01:46:40Z", "blob": "AQID", "count": 3.0, "share": 2])
        #expect(decoded.when == Date(timeIntervalSince1970: 1_000_000_000))
        #expect(decoded.blob == Data([1, 2, 3]))
        #expect(decoded.count == 3)
        #expect(decoded.share == 2)
        let fromSeconds = try ValueDecoder().decode(Date.self, from: 1_000_000_000)
        #expect(fromSeconds == Date(timeIntervalSince1970: 1_000_000_000))
    }

    func failure<T: Decodable>(_ type: T.Type, from value: Value) -> SatchelError? {
        do {
            let decoded = try ValueDecoder().decode(type, from: value)
            Issue.record("decoded \(decoded)")
            return nil
        } catch {
            return error
        }
    }

    @Test func errorsCarryCodesAndKeyPaths() throws {
        struct Row: Decodable { var cells: [Int8] }
        struct Table: Decodable { var rows: [Row] }
        let overflow = failure(Table.self, from: ["rows": [["cells": [1]], ["cells": [1, 200]]]])
        #expect(overflow?.code == .numberOutOfRange)
        #expect(overflow?.keyPath == "$.rows[1].cells[1]")
        let fraction = failure(Int.self, from: 2.5)
        #expect(fraction?.code == .numberOutOfRange)
        let kind = failure(Table.self, from: ["rows": [["cells": "x"]]])
        #expect(kind?.code == .typeMismatch)
        #expect(kind?.keyPath == "$.rows[0].cells")
        let missing = failure(Table.self, from: ["rows": [[:]]])
        #expect(missing?.code == .valueNotFound)
        #expect(missing?.keyPath == "$.rows[0].cells")
        let null = failure(String.self, from: nil)
        #expect(null?.code == .valueNotFound)
        let badDate = failure(Date.self, from: "not a date")
        #expect(badDate?.code == .typeMismatch)
        let badBase64 = failure(Data.self, from: "***")
        #expect(badBase64?.code == .typeMismatch)
        let tooBigFloat = failure(Float.self, from: 1e300)
        #expect(tooBigFloat?.code == .numberOutOfRange)
    }

    @Test func typeThrownErrorsAreWrapped() throws {
        struct Picky: Decodable {
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "never")
            }
        }
        let error = failure([Picky].self, from: [1])
        #expect(error?.code == .typeMismatch)
        #expect(error?.message == "never")
        #expect(error?.keyPath == "$[0]")
    }

    @Test func valueIsCodableThroughFoundation() throws {
        let value: Value = [
            "a": [1, 2.5, "x", true, nil], "big": .unsignedInteger(UInt64.max), "bytes": .bytes([255]),
        ]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(Value.self, from: data)
        // Foundation's keyed containers do not keep member order, so compare member by member.
        #expect(Set(decoded.objectValue?.keys ?? []) == ["a", "big", "bytes"])
        #expect(decoded["a"] == [1, 2.5, "x", true, nil])
        #expect(decoded["big"] == .unsignedInteger(UInt64.max))
        // Bytes travel in their canonical form through other encoders.
        #expect(decoded["bytes"] == ["$data": "/w=="])
    }

    @Test func encodingNothingIsAnError() throws {
        struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: SatchelError.self) { try ValueEncoder().encode(Silent()) }
    }

    @Test func superEncoderAndDecoderNestUnderSuper() throws {
        class Base: Codable { var base = 1 }
        final class Derived: Base {
            var own = 2
            enum Keys: String, CodingKey { case own }
            override init() { super.init() }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                own = try container.decode(Int.self, forKey: .own)
                try super.init(from: container.superDecoder())
            }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(own, forKey: .own)
                try super.encode(to: container.superEncoder())
            }
        }
        let value = try ValueEncoder().encode(Derived())
        #expect(value == ["own": 2, "super": ["base": 1]])
        let decoded = try ValueDecoder().decode(Derived.self, from: ["own": 5, "super": ["base": 7]])
        #expect(decoded.own == 5 && decoded.base == 7)
    }

    final class Tracked: Sendable {}

    struct Nested: Encodable {
        enum Keys: String, CodingKey { case outer, list }
        enum Inner: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Inner.self, forKey: .outer)
            try inner.encode(1, forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode([["x": 1]])
        }
    }

    /// Fuzz target `typed` (Fuzz/Seeds/typed/nested-encoder-leak): an encoding node held its
    /// parent, which holds its children, so every nested value leaked its nodes and with them
    /// the encoder's `userInfo`.
    @Test func encodingLeavesNothingBehind() throws {
        weak var tracked: Tracked?
        try { () throws in
            let object = Tracked()
            tracked = object
            var encoder = ValueEncoder()
            encoder.userInfo[CodingUserInfoKey(rawValue: "tracked")!] = object
            #expect(try encoder.encode(Nested()) == ["outer": ["a": 1], "list": [[["x": 1]]]])
        }()
        #expect(tracked == nil)
    }
}
