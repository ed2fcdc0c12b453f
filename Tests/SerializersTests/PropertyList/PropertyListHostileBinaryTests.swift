// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Hostile binary plists: each is a clear SatchelError, never a crash, a hang or a huge
/// allocation.
@Suite struct PropertyListHostileBinaryTests {
    /// `["a", 1]`: a small valid plist the tests break one field at a time.
    static let valid = HandmadeBinaryPlist(objects: [[0xA2, 1, 2], [0x51, 0x61], [0x10, 0x01]])

    static func code(_ plist: HandmadeBinaryPlist, limits: Limits = .default) -> SatchelError.Code? {
        satchelError { try readPlist(plist.bytes, limits: limits) }?.code
    }

    @Test func theValidBaseReads() throws {
        #expect(try readPlist(Self.valid.bytes) == ["a", 1])
    }

    @Test func everyTruncationIsAnError() throws {
        let bytes = Self.valid.bytes
        for length in 0..<bytes.count {
            let error = satchelError { try readPlist(Array(bytes.prefix(length))) }
            #expect(error != nil, "prefix \(length)")
        }
    }

    @Test(arguments: [0, 9, 255])
    func offsetAndReferenceSizesOutsideOneToEight(size: Int) throws {
        var offsets = Self.valid
        offsets.offsetSize = size
        #expect(Self.code(offsets) == .syntaxError)
        var references = Self.valid
        references.referenceSize = size
        #expect(Self.code(references) == .syntaxError)
    }

    @Test func trailerFieldsOutOfRange() throws {
        var plist = Self.valid
        plist.objectCount = 1 << 60
        #expect(Self.code(plist) == .syntaxError)
        plist = Self.valid
        plist.objectCount = 0
        #expect(Self.code(plist) == .syntaxError)
        plist = Self.valid
        plist.topObject = 3
        #expect(Self.code(plist) == .syntaxError)
        plist = Self.valid
        plist.tableOffset = .max
        #expect(Self.code(plist) == .syntaxError)
        plist.tableOffset = 2
        #expect(Self.code(plist) == .syntaxError)
    }

    @Test func objectOffsetsAndReferencesOutOfRange() throws {
        var plist = Self.valid
        plist.offsetOverrides = [1: 200]
        let error = satchelError { try readPlist(plist.bytes) }
        #expect(error?.code == .syntaxError)
        #expect(error?.keyPath == "$[0]")
        plist.offsetOverrides = [2: 3]
        #expect(Self.code(plist) == .syntaxError)
        var references = Self.valid
        references.objects[0] = [0xA2, 1, 9]
        #expect(Self.code(references) == .syntaxError)
    }

    @Test func referenceCyclesAreErrors() throws {
        let selfArray = HandmadeBinaryPlist(objects: [[0xA1, 0]])
        let message = satchelError { try readPlist(selfArray.bytes) }?.message ?? ""
        #expect(message.contains("cycle"))
        let mutual = HandmadeBinaryPlist(objects: [[0xD1, 1, 2], [0x51, 0x6B], [0xA1, 0]])
        let error = satchelError { try readPlist(mutual.bytes) }
        #expect(error?.message.contains("cycle") == true)
        #expect(error?.keyPath == "$.k[0]")
    }

    @Test func absurdCountsFailBeforeAllocating() throws {
        for marker: UInt8 in [0xAF, 0xDF, 0x4F, 0x5F, 0x6F] {
            let plist = HandmadeBinaryPlist(objects: [[marker, 0x13, 0x10] + [UInt8](repeating: 0, count: 7)])
            #expect(Self.code(plist) != nil, "marker \(marker)")
        }
        let wide = HandmadeBinaryPlist(objects: [[0xAF, 0x14] + [UInt8](repeating: 0xFF, count: 16)])
        #expect(Self.code(wide) == .syntaxError)
        let past = HandmadeBinaryPlist(objects: [[0xAF, 0x10, 10, 0, 0]])
        #expect(Self.code(past) == .truncatedInput)
    }

    @Test func sharedReferencesCannotExpandExponentially() throws {
        // Object i is [i+1, i+1]: 60 levels expand to 2^60 values if copied at each reference.
        var objects = (0..<60).map { index -> [UInt8] in [0xA2, UInt8(index + 1), UInt8(index + 1)] }
        objects.append([0x09])
        let laughs = HandmadeBinaryPlist(objects: objects)
        let error = satchelError { try readPlist(laughs.bytes) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxBodyBytes")
        // A few shared levels are fine.
        var small = (0..<5).map { index -> [UInt8] in [0xA2, UInt8(index + 1), UInt8(index + 1)] }
        small.append([0x09])
        let value = try readPlist(HandmadeBinaryPlist(objects: small).bytes)
        #expect(value[0]?[1]?[0]?[1] == [true, true])
    }

    @Test func nestingDeeperThanMaxDepth() throws {
        var objects = (0..<600).map { index -> [UInt8] in [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)] }
        objects.append([0x08])
        var plist = HandmadeBinaryPlist(objects: objects)
        plist.referenceSize = 2
        plist.offsetSize = 2
        let error = satchelError { try readPlist(plist.bytes) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
        #expect(try readPlist(plist.bytes, limits: Limits(maxDepth: 700)) != .null)
    }

    @Test func limitsOnStringsPairsAndBody() throws {
        let long = HandmadeBinaryPlist(objects: [[0x5A] + Array("0123456789".utf8)])
        #expect(
            satchelError { try readPlist(long.bytes, limits: Limits(maxStringBytes: 4)) }?.limit == "maxStringBytes")
        let utf16 = HandmadeBinaryPlist(objects: [[0x63, 0x00, 0xE9, 0x00, 0xE9, 0x00, 0xE9]])
        #expect(
            satchelError { try readPlist(utf16.bytes, limits: Limits(maxStringBytes: 5)) }?.limit == "maxStringBytes")
        let pairs = HandmadeBinaryPlist(objects: [[0xD2, 1, 2, 3, 3], [0x51, 0x61], [0x51, 0x62], [0x09]])
        #expect(satchelError { try readPlist(pairs.bytes, limits: Limits(maxPairs: 1)) }?.limit == "maxPairs")
        #expect(try readPlist(pairs.bytes) == ["a": true, "b": true])
        #expect(satchelError { try readPlist(pairs.bytes, limits: Limits(maxBodyBytes: 20)) }?.limit == "maxBodyBytes")
    }

    @Test func binaryOnlyTypesAreReportedNotDropped() throws {
        for (marker, name) in [(UInt8(0xC1), "set"), (0xB1, "ordered set"), (0x00, "null"), (0x0F, "fill")] {
            let plist = HandmadeBinaryPlist(objects: [[0xA1, 1], [marker, 0x09]])
            let error = satchelError { try readPlist(plist.bytes) }
            #expect(error?.code == .unsupportedFormat)
            #expect(error?.message.contains(name) == true)
            #expect(error?.keyPath == "$[0]")
        }
    }

    @Test func malformedObjects() throws {
        let cases: [[UInt8]] = [
            [0x90], [0xE0], [0xF0], [0x01], [0x15], [0x21, 0, 0], [0x34], [0x89] + [UInt8](repeating: 0, count: 10),
            [0x33] + HandmadeBinaryPlist.bigEndian(Double.nan.bitPattern, size: 8),
        ]
        for object in cases {
            #expect(Self.code(HandmadeBinaryPlist(objects: [object])) != nil, "\(object)")
        }
        let numberKey = HandmadeBinaryPlist(objects: [[0xD1, 1, 1], [0x10, 0x01]])
        #expect(Self.code(numberKey) == .syntaxError)
        let badASCII = HandmadeBinaryPlist(objects: [[0x52, 0x61, 0xE9]])
        #expect(Self.code(badASCII) == .invalidEncoding)
        let badUTF8 = HandmadeBinaryPlist(objects: [[0x72, 0xC3, 0x28]])
        #expect(Self.code(badUTF8) == .invalidEncoding)
        for units: [UInt8] in [[0x61, 0xDC, 0x00], [0x62, 0xD8, 0x3C, 0x00, 0x41], [0x61, 0xD8, 0x3C]] {
            #expect(Self.code(HandmadeBinaryPlist(objects: [units])) == .invalidEncoding, "\(units)")
        }
    }

    @Test func seededMutationsNeverCrash() throws {
        let mutator = ByteMutator(
            alphabet: [0, 1, 2, 8, 9, 0x0F, 0x10, 0x13, 0x14, 0x33, 0x5F, 0xA1, 0xAF, 0xD1, 0xDF, 0xFF],
            snippets: ["bplist00", "\u{0}\u{0}\u{0}\u{0}"])
        #expect(try readSeededMutations(format: .binary, mutator: mutator, seed: 0xB1157) > 0)
    }
}
