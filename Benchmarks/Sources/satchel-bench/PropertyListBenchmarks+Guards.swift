// SPDX-License-Identifier: Apache-2.0
import CPlistBaseline
import Foundation
import Satchel

extension PropertyListBenchmarks {
    /// Fails unless every contender reads the input as the same tree and every writer's output
    /// reads back as it. Returns the size of Satchel's output.
    func checkReaders(_ input: Input, value: Value, foundationTree: Any, tree: UnsafeMutableRawPointer?) throws -> Int {
        let name = input.file.name
        let expected = Self.sortedKeys(value)
        guard try Self.value(fromFoundation: foundationTree) == expected else {
            throw BenchmarkFailure.guardFailed("\(name): Foundation and Satchel read different trees")
        }
        guard let tree,
            plist_baseline_read(input.file.bytes, UInt32(input.file.bytes.count), input.isBinary)
                == Int32(value.objectValue?.count ?? -1)
        else {
            throw BenchmarkFailure.guardFailed("\(name): libplist cannot read the input")
        }
        let satchelOutput = try PropertyListWriter(format: input.format).write(value)
        guard try PropertyListReader().read(satchelOutput) == value else {
            throw BenchmarkFailure.guardFailed("\(name): Satchel's output does not read back as the same Value")
        }
        let reread = try PropertyListSerialization.propertyList(from: Data(satchelOutput), options: [], format: nil)
        guard try Self.value(fromFoundation: reread) == expected else {
            throw BenchmarkFailure.guardFailed("\(name): Foundation reads Satchel's output as another tree")
        }
        let foundationFormat: PropertyListSerialization.PropertyListFormat = input.format == .xml ? .xml : .binary
        let foundationOutput = try PropertyListSerialization.data(
            fromPropertyList: foundationTree, format: foundationFormat, options: 0)
        guard try PropertyListReader().read([UInt8](foundationOutput)).map(Self.sortedKeys) == expected else {
            throw BenchmarkFailure.guardFailed("\(name): Foundation's output does not read back as the same tree")
        }
        let capacity = UInt32(8 * input.file.bytes.count)
        var libplistOutput = [UInt8](repeating: 0, count: Int(capacity))
        let length = libplistOutput.withUnsafeMutableBytes {
            plist_baseline_write_into(tree, input.isBinary, $0.baseAddress, capacity)
        }
        guard length > 0, length <= capacity,
            try PropertyListReader().read(Array(libplistOutput.prefix(Int(length)))).map(Self.sortedKeys) == expected
        else {
            throw BenchmarkFailure.guardFailed("\(name): libplist's output does not read back as the same tree")
        }
        return satchelOutput.count
    }

    /// `value` with every object's members sorted by key (Foundation's dictionaries are unordered).
    static func sortedKeys(_ value: Value) -> Value {
        switch value {
        case .array(let elements): .array(elements.map(sortedKeys))
        case .object(let members):
            .object(
                ValueObject(
                    uniqueKeysWithValues: members.sorted { $0.key < $1.key }.map { ($0.key, sortedKeys($0.value)) }))
        default: value
        }
    }

    /// Foundation's plist tree as a `Value` with sorted keys.
    static func value(fromFoundation object: Any) throws -> Value {
        switch object {
        case let dictionary as [String: Any]:
            var members = ValueObject()
            for key in dictionary.keys.sorted() { members[key] = try value(fromFoundation: dictionary[key] as Any) }
            return .object(members)
        case let array as [Any]:
            return .array(try array.map(value(fromFoundation:)))
        case let string as String:
            return .string(string)
        case let date as Date:
            return .date(date)
        case let data as Data:
            return .bytes([UInt8](data))
        case let flag as Bool where type(of: object) == Bool.self:
            return .bool(flag)
        case let integer as Int where type(of: object) == Int.self:
            return .integer(Int64(integer))
        case let integer as UInt64 where type(of: object) == UInt64.self:
            return Value(integer)
        case let real as Double where type(of: object) == Double.self:
            return .double(real)
        case let number as NSNumber:
            return Self.number(number)
        default:
            throw BenchmarkFailure.guardFailed("Foundation returned a \(type(of: object))")
        }
    }

    private static func number(_ number: NSNumber) -> Value {
        switch String(cString: number.objCType) {
        case "c", "B": .bool(number.boolValue)
        case "f", "d": .double(number.doubleValue)
        case "Q", "L", "I", "S", "C": Value(number.uint64Value)
        default: .integer(number.int64Value)
        }
    }
}
