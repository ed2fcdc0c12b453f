// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// `PropertyListWriter.write(model:)` writes the model as it encodes itself; what it writes must
/// be byte for byte what the tree path (`ValueEncoder`, then `write(_:)`) writes, and readable by
/// independent readers.
@Suite struct PropertyListStreamEncoderTests {
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var price: Double
        var active: Bool
        var created: Date
        var digest: Data
        var link: URL
        var tags: [String]
        var empty: [Int]
        var nothing: [String: Int]
        var extra: Value
        var missing: Int?
    }

    struct Catalog: Codable, Equatable {
        var version: UInt64
        var records: [Record]
        var grid: [[Int8]]
    }

    static let catalog = Catalog(version: .max, records: (0..<40).map(record), grid: [[1, -2], [], [127]])

    /// A record with members that vary with `index`: shared and distinct strings, escapes, empty
    /// data and lists, a `Value` with a UID in some.
    static func record(_ index: Int) -> Record {
        let name: String = index % 3 == 0 ? "Zoë & <co> \(index % 5)" : "item \(index % 7)"
        let digest = Data((0..<index % 7).map { UInt8($0 * 37 & 0xFF) })
        let tags: [String] = Array(["a", "b", "é", "tab\tline\nreturn\r"].suffix(index % 5))
        let extra: Value = index % 4 == 0 ? ["uid": .payload(PropertyListUID(UInt64(index)))] : [1, "x", ["k": true]]
        return Record(
            id: index * 1_000_003 - 20_000_000, name: name, price: Double(index) / 3, active: index % 2 == 0,
            created: Date(timeIntervalSinceReferenceDate: Double(index * 86_400)), digest: digest,
            link: URL(string: "https://e.org/\(index)")!, tags: tags, empty: [], nothing: [:], extra: extra,
            missing: index % 2 == 0 ? nil : index)
    }

    @Test(arguments: PropertyListFormat.allCases)
    func writesTheBytesOfTheTreePath(format: PropertyListFormat) throws {
        let writer = PropertyListWriter(format: format)
        let streamed = try writer.write(model: Self.catalog)
        #expect(streamed == (try writer.write(ValueEncoder().encode(Self.catalog))))
        #expect(
            try writer.write(model: EveryPrimitive()) == (try writer.write(ValueEncoder().encode(EveryPrimitive()))))
        // Values inside the model (and a UID, which the XML form writes as its CF$UID dictionary).
        var expected = try ValueEncoder().encode(Self.catalog)
        if format == .xml { expected = Self.uidsAsDictionaries(expected) }
        #expect(try PropertyListReader().read(streamed) == expected)
    }

    /// Foundation's reader is independent of ours: it reads what the streaming path writes.
    @Test(arguments: PropertyListFormat.allCases)
    func foundationReadsWhatItWrites(format: PropertyListFormat) throws {
        struct Plain: Codable, Equatable {
            var catalog: [String: [Int]]
            var records: [Record.Plain]
        }
        let model = Plain(
            catalog: ["one": [1], "none": []],
            records: Self.catalog.records.map {
                Record.Plain(id: $0.id, name: $0.name, created: $0.created, digest: $0.digest, tags: $0.tags)
            })
        let bytes = try PropertyListWriter(format: format).write(model: model)
        #expect(try PropertyListDecoder().decode(Plain.self, from: Data(bytes)) == model)
    }

    @Test func emptyContainersAndValuesThatEncodeNothingAreEmptyDictionariesInXML() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        struct Holder: Encodable {
            var list: [Int] = []
            var map: [String: Int] = [:]
            var nothing = Nothing()
        }
        let text = String(decoding: try PropertyListWriter().write(model: Holder()), as: UTF8.self)
        #expect(
            text.contains("<key>list</key>\n\t<array/>\n\t<key>map</key>\n\t<dict/>\n\t<key>nothing</key>\n\t<dict/>\n")
        )
        let top = try #require(throws: SatchelError.self) { try PropertyListWriter().write(model: Nothing()) }
        #expect(top.code == .unencodableValue)
    }

    /// A model that fills a nested container after its parent's next member cannot be written as
    /// it goes; it is written from its tree, with the same result.
    @Test(arguments: PropertyListFormat.allCases)
    func aModelWritingOutOfOrderIsWrittenFromItsTree(format: PropertyListFormat) throws {
        struct Late: Encodable {
            enum Key: String, CodingKey { case first, second }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Key.self)
                var first = keyed.nestedUnkeyedContainer(forKey: .first)
                try keyed.encode("two", forKey: .second)
                try first.encode(1)
            }
        }
        let bytes = try PropertyListWriter(format: format).write(model: Late())
        #expect(try PropertyListReader().read(bytes) == ["first": [1], "second": "two"])
    }

    @Test(arguments: PropertyListFormat.allCases)
    func errorsNameTheirKeyPath(format: PropertyListFormat) throws {
        let writer = PropertyListWriter(format: format)
        struct Nils: Encodable { var list: [[Int?]] }
        let null = try #require(throws: SatchelError.self) { try writer.write(model: Nils(list: [[1], [2, nil]])) }
        #expect(null.code == .unencodableValue && null.keyPath == "$.list[1][1]", "\(null)")

        struct Deep: Encodable { var inner: [[[Int]]] }
        let deep = try #require(throws: SatchelError.self) {
            try PropertyListWriter(format: format, maxDepth: 3).write(model: Deep(inner: [[[1]]]))
        }
        #expect(deep.code == .limitExceeded && deep.limit == "maxDepth" && deep.keyPath == "$.inner[0][0]", "\(deep)")

        struct WithValue: Encodable { var items: [Value] }
        let inValue = try #require(throws: SatchelError.self) {
            try writer.write(model: WithValue(items: [1, ["a": [.null]]]))
        }
        #expect(inValue.code == .unencodableValue && inValue.keyPath == "$.items[1].a[0]", "\(inValue)")

        struct Refuses: Encodable {
            struct Failure: Error {}
            func encode(to encoder: any Encoder) throws { throw Failure() }
        }
        let own = try #require(throws: SatchelError.self) { try writer.write(model: [Refuses()]) }
        #expect(own.code == .unencodableValue && own.underlying is Refuses.Failure, "\(own)")
    }

    @Test func xmlRefusesControlCharactersAndFarDatesWithTheirKeyPath() throws {
        struct Text: Encodable { var names: [String: String] }
        let control = try #require(throws: SatchelError.self) {
            try PropertyListWriter().write(model: Text(names: ["k": "bell \u{7}"]))
        }
        #expect(control.code == .unencodableValue && control.keyPath == "$.names.k", "\(control)")
        let badKey = try #require(throws: SatchelError.self) {
            try PropertyListWriter().write(model: Text(names: ["\u{1}": "v"]))
        }
        // The key's own path: the names dictionary's member, however a control character renders.
        #expect(badKey.code == .unencodableValue, "\(badKey)")
        #expect(badKey.keyPath?.hasPrefix("$.names") == true && badKey.keyPath != "$.names", "\(badKey)")
        struct When: Encodable { var dates: [Date] }
        let far = try #require(throws: SatchelError.self) {
            try PropertyListWriter().write(model: When(dates: [Date(), Date(timeIntervalSince1970: 1e12)]))
        }
        #expect(far.code == .unencodableValue && far.keyPath == "$.dates[1]", "\(far)")
        // Binary has neither limit.
        let binary = try PropertyListWriter(format: .binary).write(model: Text(names: ["\u{1}": "bell \u{7}"]))
        #expect(try PropertyListReader().read(binary) == ["names": ["\u{1}": "bell \u{7}"]])
    }

    /// Equal strings are written once, however many there are and whatever their bytes (ASCII,
    /// UTF-16, lengths around the hash's eight-byte steps, more than the table's first size).
    @Test func binaryWritesEqualStringsOnce() throws {
        let distinct = (0..<5_000).map { index in
            String(repeating: index % 2 == 0 ? "k" : "ü", count: index % 19) + "\(index)"
        }
        let strings = distinct + distinct.reversed() + distinct
        let bytes = try PropertyListWriter(format: .binary).write(model: strings)
        #expect(try PropertyListReader().read(bytes) == Value.array(strings.map { .string($0) }))
        let trailer = bytes.suffix(32)
        let objects = trailer.dropFirst(8).prefix(8).reduce(0) { $0 << 8 | Int($1) }
        #expect(objects == distinct.count + 1)  // the array and each distinct string once
    }

    /// Removes the `CF$UID` dictionaries' payload form: the XML form reads back as dictionaries.
    static func uidsAsDictionaries(_ value: Value) -> Value {
        switch value {
        case .payload(let payload as PropertyListUID): ["CF$UID": Value(payload.value)]
        case .array(let elements): .array(elements.map(uidsAsDictionaries))
        case .object(let members): .object(members.mapValues(uidsAsDictionaries))
        default: value
        }
    }
}

extension PropertyListStreamEncoderTests.Record {
    /// The members Foundation's decoder reads as we write them (it has no `Value` or UID).
    struct Plain: Codable, Equatable {
        var id: Int
        var name: String
        var created: Date
        var digest: Data
        var tags: [String]
    }
}
