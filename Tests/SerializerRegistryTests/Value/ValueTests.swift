// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Testing

/// A payload for tests: a small image description with some bytes.
final class TestPayload: ValuePayload, Equatable {
    static let kind = "$test"
    let width: Int
    let data: [UInt8]

    init(width: Int, data: [UInt8] = []) {
        self.width = width
        self.data = data
    }

    var canonicalValue: Value { ["width": .integer(Int64(width)), "data": .bytes(data)] }

    static func == (lhs: TestPayload, rhs: TestPayload) -> Bool {
        lhs.width == rhs.width && lhs.data == rhs.data
    }
}

/// Another payload kind, never equal to a ``TestPayload``.
final class OtherPayload: ValuePayload, Equatable {
    static let kind = "$other"
    var canonicalValue: Value { .null }
    static func == (lhs: OtherPayload, rhs: OtherPayload) -> Bool { true }
}

@Suite("Value equality")
struct ValueEqualityTests {
    @Test func integersCompareByNumber() {
        #expect(Value.integer(5) == .unsignedInteger(5))
        #expect(Value.unsignedInteger(5) == .integer(5))
        #expect(Value.integer(0) == .unsignedInteger(0))
        #expect(Value.integer(.max) == .unsignedInteger(UInt64(Int64.max)))
        #expect(Value.integer(-1) != .unsignedInteger(.max))
        #expect(Value.unsignedInteger(.max) != .integer(-1))
        #expect(Value.integer(-1) == .integer(-1))
        #expect(Value.integer(-1) != .integer(-2))
        #expect(Value.unsignedInteger(.max) == .unsignedInteger(.max))
        #expect(Value.unsignedInteger(.max) != .unsignedInteger(.max - 1))
    }

    @Test func kindsDoNotMix() {
        #expect(Value.integer(1) != .double(1))
        #expect(Value.integer(1) != .bool(true))
        #expect(Value.string("1") != .integer(1))
        #expect(Value.null != .string(""))
        #expect(Value.bytes([0x61]) != .string("a"))
        #expect(Value.array([]) != .object([:]))
    }

    @Test func doublesUseIEEEEquality() {
        #expect(Value.double(0.0) == .double(-0.0))
        #expect(Value.double(.nan) != .double(.nan))
        #expect(Value.double(0.1 + 0.2) != .double(0.3))
    }

    @Test func containers() {
        #expect(Value.array([1, "a"]) == [1, "a"])
        #expect(Value.array([1, "a"]) != ["a", 1])
        let ab: Value = ["a": 1, "b": 2]
        let ba: Value = ["b": 2, "a": 1]
        #expect(ab != ba, "object members are compared in order")
        #expect(ab == ["a": 1, "b": 2])
        #expect(Value.object(["a": [1, ["x": nil]]]) == ["a": [1, ["x": nil]]])
        #expect(Value.bytes([1, 2]) == .bytes([1, 2]))
        #expect(Value.date(Date(timeIntervalSince1970: 5)) == .date(Date(timeIntervalSince1970: 5)))
        #expect(Value.date(Date(timeIntervalSince1970: 5)) != .date(Date(timeIntervalSince1970: 6)))
    }

    @Test func payloads() {
        #expect(Value.payload(TestPayload(width: 2)) == .payload(TestPayload(width: 2)))
        #expect(Value.payload(TestPayload(width: 2)) != .payload(TestPayload(width: 3)))
        #expect(Value.payload(TestPayload(width: 2)) != .payload(OtherPayload()))
        #expect(Value.payload(OtherPayload()) != .null)
    }
}

@Suite("Value construction and access")
struct ValueAccessTests {
    @Test func literals() {
        let null: Value = nil
        #expect(null == .null)
        let flag: Value = true
        #expect(flag == .bool(true))
        let integer: Value = -42
        if case .integer(let number) = integer { #expect(number == -42) } else { Issue.record("\(integer)") }
        let double: Value = 1.5
        if case .double(let number) = double { #expect(number == 1.5) } else { Issue.record("\(double)") }
        let string: Value = "s"
        #expect(string == .string("s"))
        let array: Value = [1, "a", nil]
        #expect(array == .array([.integer(1), .string("a"), .null]))
        let object: Value = ["z": 1, "a": 2]
        #expect(object.objectValue?.keys.elementsEqual(["z", "a"]) == true, "literal order is kept")
        let repeated: Value = ["k": 1, "k": 2]
        #expect(repeated["k"] == 2)
        #expect(repeated.objectValue?.count == 1)
    }

    @Test(arguments: [
        (UInt64(0), false), (UInt64(1), false), (UInt64(Int64.max), false),
        (UInt64(Int64.max) + 1, true), (UInt64.max, true),
    ])
    func unsignedInitializerChoosesTheCase(number: UInt64, unsigned: Bool) {
        let value = Value(number)
        switch value {
        case .integer(let signed):
            #expect(!unsigned)
            #expect(UInt64(signed) == number)
        case .unsignedInteger(let stored):
            #expect(unsigned)
            #expect(stored == number)
        default:
            Issue.record("\(value) is not an integer")
        }
        #expect(value.uint64Value == number)
    }

    @Test func numericAccessors() {
        #expect(Value.integer(-3).int64Value == -3)
        #expect(Value.integer(-3).uint64Value == nil)
        #expect(Value.integer(-3).doubleValue == -3)
        #expect(Value.unsignedInteger(.max).int64Value == nil)
        #expect(Value.unsignedInteger(.max).uint64Value == .max)
        #expect(Value.unsignedInteger(7).int64Value == 7)
        #expect(Value.double(2.5).doubleValue == 2.5)
        #expect(Value.double(2).int64Value == nil, "a double is not an integer")
        #expect(Value.string("1").int64Value == nil)
        #expect(Value.string("1").doubleValue == nil)
        #expect(Value.bool(true).int64Value == nil)
    }

    @Test func kindAccessors() {
        let date = Date(timeIntervalSince1970: 1)
        #expect(Value.bool(false).boolValue == false)
        #expect(Value.integer(0).boolValue == nil)
        #expect(Value.string("x").stringValue == "x")
        #expect(Value.bytes([1]).stringValue == nil)
        #expect(Value.bytes([1]).bytesValue == [1])
        #expect(Value.date(date).dateValue == date)
        #expect(Value.array([1]).arrayValue == [1])
        #expect(Value.object(["a": 1]).objectValue == ["a": 1])
        #expect(Value.array([]).objectValue == nil)
        #expect(Value.null.isNull)
        #expect(!Value.string("").isNull)
        #expect((Value.payload(TestPayload(width: 1)).payloadValue as? TestPayload)?.width == 1)
        #expect(Value.null.payloadValue == nil)
        #expect(Value.payload(TestPayload(width: 2)).payload(as: TestPayload.self)?.width == 2)
        #expect(Value.payload(TestPayload(width: 2)).payload(as: OtherPayload.self) == nil)
        #expect(Value.string("x").payload(as: TestPayload.self) == nil)
    }

    @Test func kindNames() {
        let cases: [(Value, String)] = [
            (.null, "null"), (true, "bool"), (1, "integer"), (.unsignedInteger(.max), "integer"),
            (1.5, "double"), ("s", "string"), (.bytes([]), "bytes"), (.date(Date()), "date"),
            ([], "array"), ([:], "object"), (.payload(TestPayload(width: 1)), "$test"),
        ]
        for (value, name) in cases {
            #expect(value.kindName == name)
        }
    }

    @Test func subscripts() {
        let value: Value = ["users": [["name": "Ann"], ["name": "Bo"]], "count": 2]
        #expect(value["users"]?[1]?["name"] == "Bo")
        #expect(value["count"] == 2)
        #expect(value["missing"] == nil)
        #expect(value["users"]?[2] == nil)
        #expect(value["users"]?[-1] == nil)
        #expect(value[0] == nil, "an object has no elements")
        #expect(Value.array([1])["a"] == nil, "an array has no members")
        #expect(Value.string("abc")[0] == nil)
        let withNull: Value = ["a": nil]
        #expect(withNull["a"] == .null, "a null member is present")
    }
}

@Suite("Value canonical form")
struct ValueCanonicalTests {
    @Test func bytes() {
        let value = Value.bytes([0xFF, 0x00, 0x10])
        #expect(value.canonicalForm == ["$data": "/wAQ"])
        #expect(value.canonicalJSON() == #"{"$data":"/wAQ"}"#)
        #expect(Value.bytes([]).canonicalJSON() == #"{"$data":""}"#)
        #expect(Value.bytes(Array("hello".utf8)).canonicalJSON() == #"{"$data":"aGVsbG8="}"#)
    }

    @Test func wholeSecondDates() {
        #expect(
            Value.date(Date(timeIntervalSinceReferenceDate: 0)).canonicalJSON() == #"{"$date":"2001-01-01T00:00:00Z"}"#)
        #expect(Value.date(Date(timeIntervalSince1970: 0)).canonicalJSON() == #"{"$date":"1970-01-01T00:00:00Z"}"#)
        #expect(
            Value.date(Date(timeIntervalSince1970: 1_700_000_000)).canonicalForm == ["$date": "2023-11-14T22:13:20Z"])
    }

    @Test func fractionalDatesHaveMilliseconds() {
        #expect(
            Value.date(Date(timeIntervalSinceReferenceDate: 0.5)).canonicalJSON()
                == #"{"$date":"2001-01-01T00:00:00.500Z"}"#)
        #expect(
            Value.date(Date(timeIntervalSince1970: 1.25)).canonicalJSON() == #"{"$date":"1970-01-01T00:00:01.250Z"}"#)
        #expect(
            Value.date(Date(timeIntervalSince1970: -0.5)).canonicalJSON() == #"{"$date":"1969-12-31T23:59:59.500Z"}"#)
        #expect(Value.date(Date(timeIntervalSince1970: -1)).canonicalJSON() == #"{"$date":"1969-12-31T23:59:59Z"}"#)
    }

    @Test func fractionsBelowAMillisecondAreNotWritten() {
        // Milliseconds are the precision: a fraction that does not show in them is no fraction,
        // and the time never rounds up into the next second.
        #expect(Value.date(Date(timeIntervalSince1970: 0.0004)).canonicalJSON() == #"{"$date":"1970-01-01T00:00:00Z"}"#)
        #expect(
            Value.date(Date(timeIntervalSince1970: 0.9996)).canonicalJSON() == #"{"$date":"1970-01-01T00:00:00.999Z"}"#)
    }

    @Test func payloads() {
        let value = Value.payload(TestPayload(width: 2, data: [1, 2]))
        #expect(value.canonicalForm == ["$test": ["width": 2, "data": ["$data": "AQI="]]])
        #expect(value.canonicalJSON() == #"{"$test":{"width":2,"data":{"$data":"AQI="}}}"#)
        #expect(TestPayload(width: 2).description == #"$test({"width":2,"data":{"$data":""}})"#)
    }

    @Test func nestedValues() {
        let value: Value = ["a": [.bytes([0]), .date(Date(timeIntervalSince1970: 0))], "b": 1]
        #expect(value.canonicalForm == ["a": [["$data": "AA=="], ["$date": "1970-01-01T00:00:00Z"]], "b": 1])
        let plain: Value = [nil, true, 1, .unsignedInteger(.max), 1.5, "s/t", [:], []]
        #expect(plain.canonicalForm == plain, "JSON types are unchanged")
        #expect(plain.canonicalJSON() == #"[null,true,1,18446744073709551615,1.5,"s/t",{},[]]"#)
    }

    @Test func descriptionIsCanonicalJSON() {
        let value: Value = ["k": [1, "two"]]
        #expect(value.description == value.canonicalJSON())
        #expect("\(value)" == #"{"k":[1,"two"]}"#)
    }

    @Test func prettyCanonicalJSON() {
        let value: Value = ["a": [1], "b": .bytes([1])]
        #expect(
            value.canonicalJSON(pretty: true) == """
                {
                  "a": [
                    1
                  ],
                  "b": {
                    "$data": "AQ=="
                  }
                }
                """)
    }

    @Test func nonFiniteNumbersAreNull() {
        let value: Value = [.double(.nan), .double(.infinity), .double(-.infinity)]
        #expect(value.canonicalJSON() == "[null,null,null]")
    }

    @Test func deepValuesAreWrittenInFull() {
        // Canonical JSON has no depth limit of its own: the value already exists. Bytes at the
        // bottom of a value 512 deep become one level deeper.
        var value = Value.bytes([1])
        for _ in 0..<600 { value = [value] }
        let json = value.canonicalJSON()
        #expect(json.hasPrefix(String(repeating: "[", count: 600) + #"{"$data":"AQ=="}"#))
        #expect(json.hasSuffix(String(repeating: "]", count: 600)))
    }
}
