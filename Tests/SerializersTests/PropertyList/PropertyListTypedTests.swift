// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

@Suite("Property lists straight into models")
struct PropertyListTypedTests {
    struct Item: Codable, Equatable {
        var name: String
        var count: Int8
    }

    struct Document: Codable, Equatable {
        var title: String
        var big: UInt64
        var ratio: Double
        var flag: Bool
        var when: Date
        var blob: Data
        var items: [Item]
        var missing: String?
        var extra: Value
    }

    static let value = document()

    /// The document as a value, with other `items` or without its title.
    static func document(
        items: Value = [["name": "a", "count": 1], ["name": "b", "count": 2]], title: Bool = true
    ) -> Value {
        var members: ValueObject = [
            "big": Value(UInt64.max), "ratio": 2.5, "flag": true,
            "when": .date(Date(timeIntervalSinceReferenceDate: 12345)), "blob": .bytes([0, 1, 2]),
            "items": items, "extra": ["k": [1, "x"]],
        ]
        if title { members["title"] = "Zoë" }
        return .object(members)
    }

    static let expected = Document(
        title: "Zoë", big: .max, ratio: 2.5, flag: true, when: Date(timeIntervalSinceReferenceDate: 12345),
        blob: Data([0, 1, 2]), items: [.init(name: "a", count: 1), .init(name: "b", count: 2)], missing: nil,
        extra: ["k": [1, "x"]])

    @Test(
        "binary from the object table and XML through its value give the same model",
        arguments: [
            PropertyListFormat.binary, .xml,
        ])
    func bothFormats(format: PropertyListFormat) throws {
        let bytes = try PropertyListWriter(format: format).write(Self.value)
        let typed = try PropertyListReader().read(Document.self, from: bytes)
        #expect(typed == Self.expected)
        let tree = try #require(try PropertyListReader().read(bytes))
        let throughValue = try ValueDecoder().decode(Document.self, from: tree)
        #expect(typed == throughValue)
        let registry = Registry.standard()
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/x-plist"])
        #expect(try registry.decode(Document.self, response: response, body: bytes) == Self.expected)
    }

    @Test("a model writes both formats, and reads back", arguments: [PropertyListFormat.binary, .xml])
    func writesModels(format: PropertyListFormat) throws {
        let bytes = try PropertyListWriter(format: format).write(model: Self.expected)
        #expect(try PropertyListReader().read(Document.self, from: bytes) == Self.expected)
        struct WithNil: Encodable { var a: Int?; var b: [Int?] }
        let null = try #require(throws: SatchelError.self) {
            try PropertyListWriter(format: format).write(model: WithNil(a: nil, b: [1, nil]))
        }
        #expect(null.code == .unencodableValue && null.keyPath == "$.b[1]", "\(null)")
    }

    @Test("errors name the key path on the typed path as on the value path")
    func errors() throws {
        var value = Self.document(items: [["name": "a", "count": 1], ["name": 7, "count": 2]])
        let mismatch = try #require(throws: SatchelError.self) {
            try PropertyListReader().read(Document.self, from: try PropertyListWriter(format: .binary).write(value))
        }
        #expect(mismatch.code == .typeMismatch && mismatch.keyPath == "$.items[1].name", "\(mismatch)")
        value = Self.document(items: [["name": "a", "count": 300]])
        let range = try #require(throws: SatchelError.self) {
            try PropertyListReader().read(Document.self, from: try PropertyListWriter(format: .binary).write(value))
        }
        #expect(range.code == .numberOutOfRange && range.keyPath == "$.items[0].count", "\(range)")
        value = Self.document(title: false)
        let missing = try #require(throws: SatchelError.self) {
            try PropertyListReader().read(Document.self, from: try PropertyListWriter(format: .binary).write(value))
        }
        #expect(missing.code == .valueNotFound && missing.keyPath == "$.title", "\(missing)")
        let notADictionary = try #require(throws: SatchelError.self) {
            try PropertyListReader().read(Document.self, from: try PropertyListWriter(format: .binary).write([1, 2]))
        }
        #expect(notADictionary.code == .typeMismatch)
    }

    /// Any depth of arrays, as deep as the input goes.
    final class Nest: Decodable {
        let children: [Nest]
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var children: [Nest] = []
            while !container.isAtEnd { children.append(try container.decode(Nest.self)) }
            self.children = children
        }
    }

    /// A binary property list of `objects` (each its bytes), object 0 on top.
    static func binary(_ objects: [[UInt8]]) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for number in [UInt64(objects.count), 0, UInt64(table)] {
            bytes += (0..<8).map { UInt8((number >> (8 * (7 - UInt64($0)))) & 0xFF) }
        }
        return bytes
    }

    @Test("a reference cycle into a recursive model and shared-object bombs are refused")
    func hostile() throws {
        // Object 0 is an array holding itself.
        let cycle = try #require(throws: SatchelError.self) {
            try PropertyListReader().read(Nest.self, from: Self.binary([[0xA1, 0x00]]))
        }
        #expect(cycle.code == .limitExceeded && cycle.message.contains("maxDepth"), "\(cycle)")
        // Ten levels of ten references each to the next: 10^10 objects if expanded.
        var objects: [[UInt8]] = (0..<10).map { level in [0xAA] + Array(repeating: UInt8(level + 1), count: 10) }
        objects.append([0xA0])
        var limits = Limits.default
        limits.maxBodyBytes = 100_000
        let bomb = try #require(throws: SatchelError.self) {
            try PropertyListReader(limits: limits).read(Nest.self, from: Self.binary(objects))
        }
        #expect(bomb.code == .limitExceeded && bomb.message.contains("maxBodyBytes"), "\(bomb)")
    }

    struct Scalars: Codable, Equatable {
        var text: String
        var count: Int
        var wide: Int64
        var ratio: Double
        var flag: Bool
        var counts: [Int]
        var ratios: [Double]
        var maybe: String?
    }

    /// `String`, `Int`, `Int64`, `Double` and `Bool` are read where they lie in a binary property
    /// list, without a decoding node; values and errors must be the general path's.
    @Test("common scalars take the fast path with the general path's values and errors")
    func fastScalars() throws {
        let value: Value = [
            "text": "é", "count": 2.0, "wide": Value(UInt64(Int64.max)), "ratio": 3, "flag": false,
            "counts": [1, 2.0, -3], "ratios": [1, 2.5], "maybe": "x",
        ]
        let bytes = try PropertyListWriter(format: .binary).write(value)
        let typed = try PropertyListReader().read(Scalars.self, from: bytes)
        #expect(typed == (try ValueDecoder().decode(Scalars.self, from: value)))
        #expect(typed.count == 2 && typed.ratio == 3 && typed.wide == .max)
        let cases: [(Value, SatchelError.Code, String)] = [
            (["count": 2.5], .numberOutOfRange, "$.count"),
            (["count": "2"], .typeMismatch, "$.count"),
            (["wide": Value(UInt64.max)], .numberOutOfRange, "$.wide"),
            (["flag": 1], .typeMismatch, "$.flag"),
            (["text": .bytes([1])], .typeMismatch, "$.text"),
            (["counts": [1, "x"]], .typeMismatch, "$.counts[1]"),
            (["ratios": [1, [2]]], .typeMismatch, "$.ratios[1]"),
            (["maybe": 1], .typeMismatch, "$.maybe"),
        ]
        for (change, code, keyPath) in cases {
            guard case .object(var members) = value, case .object(let changed) = change else { continue }
            for (key, member) in changed { members[key] = member }
            let document = try PropertyListWriter(format: .binary).write(.object(members))
            let error = try #require(throws: SatchelError.self) {
                try PropertyListReader().read(Scalars.self, from: document)
            }
            let general = try #require(throws: SatchelError.self) {
                try ValueDecoder().decode(Scalars.self, from: .object(members))
            }
            #expect(error.code == code && error.keyPath == keyPath, "\(change): \(error)")
            #expect(error.code == general.code && error.keyPath == general.keyPath, "\(change)")
        }
    }

    struct OneOf<T: Decodable>: Decodable { var value: T }

    /// Regression: a binary property list holding an array or a dictionary where a model expects
    /// a scalar sent the standard library's scalar `init(from:)` back through the node's
    /// `Decodable` path, which asked the single-value container again, until the stack overflowed
    /// (a crash on hostile input, found by the fast-scalar test above).
    @Test("a container where a scalar is expected is a type mismatch, not a stack overflow")
    func containerForScalar() throws {
        for container: Value in [[1, 2], ["a": 1], []] {
            let bytes = try PropertyListWriter(format: .binary).write(["value": container])
            func expectMismatch<T: Decodable>(_ type: T.Type) {
                let error = #expect(throws: SatchelError.self) {
                    try PropertyListReader().read(OneOf<T>.self, from: bytes)
                }
                #expect(
                    error?.code == .typeMismatch && error?.keyPath == "$.value",
                    "\(T.self): \(String(describing: error))")
            }
            expectMismatch(Double.self)
            expectMismatch(Float.self)
            expectMismatch(Int8.self)
            expectMismatch(UInt64.self)
            expectMismatch(String.self)
            expectMismatch(Bool.self)
            expectMismatch(Date.self)
        }
    }
}
