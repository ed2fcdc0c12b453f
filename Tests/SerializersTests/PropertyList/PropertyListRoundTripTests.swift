// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Round trips through the independent peer, Python's plistlib: it reads what we write (in both
/// formats) and writes it back, and we read what it wrote. Equal values prove both directions.
@Suite struct PropertyListRoundTripTests {
    static let pairs: [(PropertyListFormat, PropertyListFormat)] = [
        (.xml, .xml), (.xml, .binary), (.binary, .binary), (.binary, .xml),
    ]

    @Test(arguments: pairs)
    func pythonReadsWhatWeWriteAndWeReadWhatItWrites(ours: PropertyListFormat, theirs: PropertyListFormat) throws {
        guard PythonMultipart.available() else { return }
        let written = try PropertyListWriter(format: ours).write(everyKindValue)
        let echoed = try PythonPlist.run(["convert", ours.rawValue, theirs.rawValue], input: written)
        let value = try readPlist(echoed)
        var expected = everyKindValue
        if theirs == .xml {
            // plistlib's XML writer turns CR LF and CR into LF (we write a CR as &#13; instead).
            expected =
                expected.objectValue.map { members in
                    var members = members
                    members["markup"] = "a < b & c > d ]]> \n end"
                    return .object(members)
                } ?? expected
        }
        #expect(value == expected)
        #expect(value.objectValue.map { Array($0.keys) } == everyKindValue.objectValue.map { Array($0.keys) })
    }

    @Test func pythonReadsOurUIDsInBinary() throws {
        guard PythonMultipart.available() else { return }
        let value: Value = [
            "$objects": [
                .payload(PropertyListUID(0)), .payload(PropertyListUID(70_000)), .payload(PropertyListUID(1 << 40)),
            ]
        ]
        let echoed = try PythonPlist.run(
            ["convert", "binary", "binary"], input: try PropertyListWriter(format: .binary).write(value))
        #expect(try readPlist(echoed) == value)
    }

    @Test func largeCountsAndWideReferencesRoundTrip() throws {
        guard PythonMultipart.available() else { return }
        // More than 65 536 objects: 4-byte references, 4-byte offsets, counts as 4-byte integers.
        let value = Value.array((0..<70_000).map { .string("s\($0)") })
        let echoed = try PythonPlist.run(
            ["convert", "binary", "binary"], input: try PropertyListWriter(format: .binary).write(value))
        #expect(try readPlist(echoed) == value)
    }

    @Test func seededRandomTreesRoundTrip() throws {
        guard PythonMultipart.available() else { return }
        var generator = SeededGenerator(seed: 0x0B1157)
        let trees = Value.array((0..<40).map { _ in Self.randomValue(depth: 0, using: &generator) })
        for format in PropertyListFormat.allCases {
            let echoed = try PythonPlist.run(
                ["convert", format.rawValue, format.rawValue],
                input: try PropertyListWriter(format: format).write(trees))
            #expect(try readPlist(echoed) == trees, "\(format)")
        }
    }

    static func randomValue(depth: Int, using generator: inout SeededGenerator) -> Value {
        let characters = Array("aZ09 <>&\"'\t\n\u{e9}\u{65e5}\u{1F392}]]>")
        func randomString() -> String {
            String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    characters.randomElement(using: &generator) ?? "a"
                })
        }
        switch Int.random(in: 0..<(depth < 4 ? 10 : 8), using: &generator) {
        case 0: return .bool(Bool.random(using: &generator))
        case 1:
            return .integer(
                Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0...63, using: &generator))
        case 2: return .unsignedInteger(UInt64.random(in: (1 << 63)...(.max), using: &generator))
        case 3: return .double(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 64)
        case 4: return .string(randomString())
        case 5:
            return .bytes(
                (0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
        case 6:
            return .date(
                Date(timeIntervalSince1970: Double(Int.random(in: -3_000_000_000...3_000_000_000, using: &generator))))
        case 7: return .string(randomString())
        case 8:
            return .array(
                (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    randomValue(depth: depth + 1, using: &generator)
                })
        default:
            var members = ValueObject()
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[randomString()] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }
}
