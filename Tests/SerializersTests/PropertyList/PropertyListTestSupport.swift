// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Runs scripts/plist_peer.py (Python's plistlib) from the virtual environment.
enum PythonPlist {
    static let script = MultipartSamples.root.appendingPathComponent("scripts/plist_peer.py")

    /// Runs the peer with `arguments`, feeding `input` on standard input; returns standard output.
    static func run(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory
        let files = (0..<3).map { _ in directory.appendingPathComponent("satchel-plist-\(UUID().uuidString)") }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        _ = FileManager.default.createFile(atPath: files[0].path, contents: Data(input))
        _ = FileManager.default.createFile(atPath: files[1].path, contents: nil)
        _ = FileManager.default.createFile(atPath: files[2].path, contents: nil)
        let process = Process()
        process.executableURL = PythonMultipart.python
        process.arguments = [script.path] + arguments
        process.standardInput = try FileHandle(forReadingFrom: files[0])
        process.standardOutput = try FileHandle(forWritingTo: files[1])
        process.standardError = try FileHandle(forWritingTo: files[2])
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: (try? Data(contentsOf: files[2])) ?? Data(), as: UTF8.self)
            throw PeerFailure(message: "plist_peer.py \(arguments.joined(separator: " ")) failed: \(message)")
        }
        return Array(try Data(contentsOf: files[1]))
    }

    /// What Python reports when it cannot read our output.
    struct PeerFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// A binary plist laid out by hand: `objects` in order after the header, then the offset table
/// and trailer, with every trailer field overridable so tests can break one at a time.
struct HandmadeBinaryPlist {
    var objects: [[UInt8]]
    var offsetSize = 1
    var referenceSize = 1
    var objectCount: UInt64?
    var topObject: UInt64 = 0
    var tableOffset: UInt64?
    /// Replaces the offset of object `index` in the table.
    var offsetOverrides: [Int: UInt64] = [:]

    var bytes: [UInt8] {
        var output = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for object in objects {
            offsets.append(UInt64(output.count))
            output += object
        }
        let table = UInt64(output.count)
        for (index, offset) in offsets.enumerated() {
            output += Self.bigEndian(offsetOverrides[index] ?? offset, size: offsetSize)
        }
        output += [0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: offsetSize), UInt8(truncatingIfNeeded: referenceSize)]
        output += Self.bigEndian(objectCount ?? UInt64(objects.count), size: 8)
        output += Self.bigEndian(topObject, size: 8)
        output += Self.bigEndian(tableOffset ?? table, size: 8)
        return output
    }

    static func bigEndian(_ number: UInt64, size: Int) -> [UInt8] {
        (0..<max(0, min(size, 8))).reversed().map { UInt8(truncatingIfNeeded: number >> (8 * UInt64($0))) }
    }
}

/// Reads `bytes` as a property list.
func readPlist(_ bytes: [UInt8], limits: Limits = .default) throws -> Value {
    try bytes.withUnsafeBytes { try PropertyListReader(limits: limits).read($0) }
}

/// A tree with every kind a plist holds (no NaN, whole-second dates), for round trips.
let everyKindValue: Value = [
    "string": "hello",
    "unicode": "Zürich 日本語 🎒",
    "markup": "a < b & c > d ]]> \r\n end",
    "empty": "",
    "integers": [0, 1, 255, 256, 65_535, 65_536, .integer(Int64(Int32.max) + 1), -1, .integer(.min), .integer(.max)],
    "unsigned": .unsignedInteger(.max),
    "reals": [0.5, -1e-300, 1e300, 3.0],
    "flags": [true, false],
    "date": .date(Date(timeIntervalSince1970: 1_795_000_000)),
    "old date": .date(Date(timeIntervalSince1970: -2_000_000_000)),
    "data": .bytes(Array(0...255)),
    "empty data": .bytes([]),
    "nested": ["a": ["b": [[], [:], ["c": [1, 2, 3]]]]],
    "long": .string(String(repeating: "x", count: 300)),
    "many": .array((0..<40).map { .integer(Int64($0 * 1000)) }),
]

/// Reads 3 000 seeded mutations of `everyKindValue` written in `format`: each must be a value or
/// a `SatchelError` (never a crash or another error), and a value must write back in the same
/// format and read again as itself. Returns how many mutations were errors.
func readSeededMutations(format: PropertyListFormat, mutator: ByteMutator, seed: UInt64) throws -> Int {
    let writer = PropertyListWriter(format: format)
    let sample = try writer.write(everyKindValue)
    var generator = SeededGenerator(seed: seed)
    var failures = 0
    for _ in 0..<3000 {
        let input = mutator.mutate(sample, using: &generator)
        let value: Value
        do {
            value = try readPlist(input)
        } catch is SatchelError {
            failures += 1
            continue
        }
        // NaN is not equal to itself, so such values cannot be compared after the round trip.
        if value == value {
            #expect(try readPlist(writer.write(value)) == value)
        }
    }
    return failures
}
