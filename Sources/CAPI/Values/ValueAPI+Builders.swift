// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Building values for parameters (include/satchel.h, "Builders").

/// Stores a new caller-owned value in `out`.
private func create(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ make: () throws -> Value) -> satchel_status {
    out?.pointee = nil
    return guarded {
        let out = try Arguments.required(out, "out_value")
        out.pointee = ValueHandle.retained(try make())
    }
}

@c @implementation
public func satchel_value_create_null(_ outValue: UnsafeMutablePointer<OpaquePointer?>?) -> satchel_status {
    create(outValue) { .null }
}

@c @implementation
public func satchel_value_create_bool(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ boolean: Int32
) -> satchel_status {
    create(outValue) { .bool(boolean != 0) }
}

@c @implementation
public func satchel_value_create_int64(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ integer: Int64
) -> satchel_status {
    create(outValue) { .integer(integer) }
}

@c @implementation
public func satchel_value_create_uint64(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ integer: UInt64
) -> satchel_status {
    create(outValue) { Int64(exactly: integer).map(Value.integer) ?? .unsignedInteger(integer) }
}

@c @implementation
public func satchel_value_create_double(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ number: Double
) -> satchel_status {
    create(outValue) { .double(number) }
}

@c @implementation
public func satchel_value_create_string(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ string: UnsafePointer<CChar>?, _ length: Int
) -> satchel_status {
    create(outValue) { .string(try Arguments.string(string, length, "string")) }
}

@c @implementation
public func satchel_value_create_bytes(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ bytes: UnsafePointer<UInt8>?, _ length: Int
) -> satchel_status {
    create(outValue) { .bytes(Array(try Arguments.bytes(bytes, length, "bytes"))) }
}

@c @implementation
public func satchel_value_create_date(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ seconds: Double
) -> satchel_status {
    create(outValue) {
        guard seconds.isFinite else {
            throw SatchelError(.invalidArgument, "seconds: \(seconds) is not a finite number")
        }
        return .date(Date(timeIntervalSince1970: seconds))
    }
}

@c @implementation
public func satchel_value_create_array(_ outValue: UnsafeMutablePointer<OpaquePointer?>?) -> satchel_status {
    create(outValue) { .array([]) }
}

@c @implementation
public func satchel_value_create_object(_ outValue: UnsafeMutablePointer<OpaquePointer?>?) -> satchel_status {
    create(outValue) { .object([:]) }
}

@c @implementation
public func satchel_value_array_append(_ array: OpaquePointer?, _ element: OpaquePointer?) -> satchel_status {
    guarded {
        let handle = try ValueHandle.from(array, "array")
        _ = try ValueHandle.from(element, "element")
        guard array != element else { throw SatchelError(.invalidArgument, "an array cannot be appended to itself") }
        guard case .array = handle.value else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not an array")
        }
        try handle.mutate { value in
            guard case .array(var elements) = value else { return }
            let taken = try ValueHandle.take(element, "element")
            value = .null  // leaves `elements` the only reference, so appending does not copy
            elements.append(taken)
            value = .array(elements)
        }
    }
}

@c @implementation
public func satchel_value_object_set(
    _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ keyLength: Int, _ member: OpaquePointer?
) -> satchel_status {
    guarded {
        let handle = try ValueHandle.from(object, "object")
        let key = try Arguments.string(key, keyLength, "key")
        _ = try ValueHandle.from(member, "member")
        guard object != member else { throw SatchelError(.invalidArgument, "an object cannot be a member of itself") }
        guard case .object = handle.value else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not an object")
        }
        try handle.mutate { value in
            guard case .object(var members) = value else { return }
            let taken = try ValueHandle.take(member, "member")
            value = .null  // leaves `members` the only reference, so setting does not copy
            members[key] = taken
            value = .object(members)
        }
    }
}
