// SPDX-License-Identifier: Apache-2.0
import SatchelTestSupport
import SerializerRegistry
import Testing

/// ValueEncoder and ValueDecoder through every container and every primitive type.
@Suite struct ValueCodingContainerTests {
    @Test func everyPrimitiveRoundTripsThroughAValue() throws {
        let model = EveryPrimitive()
        let value = try ValueEncoder().encode(model)
        // The tree holds each width exactly, the extremes included.
        #expect(value["int64"] == .integer(Int64.min))
        #expect(value["uint64"] == .unsignedInteger(UInt64.max))
        #expect(value["absent"] == nil)
        #expect(value["list"]?.arrayValue?.count == 16)
        #expect(value["inherited"] == .integer(-32))
        #expect(try ValueDecoder().decode(EveryPrimitive.self, from: value) == model)
    }

    @Test func nilsInArraysRoundTrip() throws {
        let values: [Int?] = [1, nil, 3, nil]
        let encoded = try ValueEncoder().encode(values)
        #expect(encoded == [1, .null, 3, .null])
        #expect(try ValueDecoder().decode([Int?].self, from: encoded) == values)
    }

    /// A value of another width or type is a precise error naming the key path.
    @Test(arguments: ["int8", "uint8", "uint", "bool", "string", "float"])
    func aMismatchedMemberIsAnErrorWithItsPath(key: String) throws {
        guard case .object(var members) = try ValueEncoder().encode(EveryPrimitive()) else {
            Issue.record("not an object")
            return
        }
        members[key] =
            ["string": .integer(1), "bool": .string("yes"), "float": .string("1.5")][key] ?? .integer(-100_000)
        let value = Value.object(members)
        let error = try #require(throws: SatchelError.self) {
            try ValueDecoder().decode(EveryPrimitive.self, from: value)
        }
        #expect([.typeMismatch, .numberOutOfRange].contains(error.code))
        #expect(error.keyPath?.contains(key) == true, "\(error)")
    }
}
