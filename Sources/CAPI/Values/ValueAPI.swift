// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Reading values: parse, type, scalars, containers, JSON (include/satchel.h, "Values"). The other
// satchel_value_ functions: ValueAPI+Builders (building), ValueAPI+Payloads (typed payloads).

@c @implementation
public func satchel_value_parse_json(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ json: UnsafePointer<CChar>?, _ length: Int
) -> satchel_status {
    outValue?.pointee = nil
    return guarded {
        let out = try Arguments.required(outValue, "out_value")
        let json = try Arguments.required(json, "json")
        let text = try Arguments.bytes(json, length == Arguments.nulTerminated ? strlen(json) : length, "json")
        out.pointee = ValueHandle.retained(try JSONReader().read(text))
    }
}

@c @implementation
public func satchel_value_free(_ value: OpaquePointer?) {
    guard let value else { return }
    let handle = Unmanaged<ValueHandle>.fromOpaque(UnsafeRawPointer(value))
    // A value owned by a parent is freed with it; releasing it here would free it twice.
    guard !handle.takeUnretainedValue().isOwnedByParent else { return }
    handle.release()
}

@c @implementation
public func satchel_value_copy(
    _ outCopy: UnsafeMutablePointer<OpaquePointer?>?, _ value: OpaquePointer?
) -> satchel_status {
    outCopy?.pointee = nil
    return guarded {
        let out = try Arguments.required(outCopy, "out_copy")
        out.pointee = ValueHandle.retained(try ValueHandle.from(value).value)
    }
}

@c @implementation
public func satchel_value_type(_ value: OpaquePointer?) -> satchel_type {
    guard let handle = try? ValueHandle.from(value) else { return SATCHEL_TYPE_INVALID }
    return handle.type
}

@c @implementation
public func satchel_value_to_json(
    _ outJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ value: OpaquePointer?, _ flags: UInt32
) -> satchel_status {
    outJSON?.pointee = nil
    outLength?.pointee = 0
    return guarded {
        let out = try Arguments.required(outJSON, "out_json")
        let handle = try ValueHandle.from(value)
        guard flags & ~UInt32(SATCHEL_JSON_PRETTY | SATCHEL_JSON_SORTED_KEYS) == 0 else {
            throw SatchelError(.invalidArgument, "flags: unknown bits 0x\(String(flags, radix: 16))")
        }
        var options = JSONWriter.Options()
        options.prettyPrinted = flags & UInt32(SATCHEL_JSON_PRETTY) != 0
        options.sortedKeys = flags & UInt32(SATCHEL_JSON_SORTED_KEYS) != 0
        options.escapesSlashes = false
        options.nonFiniteNumbers = .null
        options.maxDepth = .max  // the value exists; its depth was bounded when it was built
        let bytes = try JSONWriter(options: options).write(handle.value.canonicalForm)
        out.pointee = UnsafeMutableRawPointer(try CBuffer.mallocCopy(bytes)).assumingMemoryBound(to: CChar.self)
        outLength?.pointee = bytes.count
    }
}

// MARK: Scalars

/// Runs a getter: clears nothing on failure beyond what the caller sees through the status.
private func scalar<Result>(
    _ out: UnsafeMutablePointer<Result>?, _ value: OpaquePointer?, _ expected: String,
    _ read: (Value) throws -> Result?
) -> satchel_status {
    guarded {
        let out = try Arguments.required(out, "the out-parameter")
        let handle = try ValueHandle.from(value)
        guard let result = try read(handle.value) else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not \(expected)")
        }
        out.pointee = result
    }
}

@c @implementation
public func satchel_value_get_bool(_ outBool: UnsafeMutablePointer<Int32>?, _ value: OpaquePointer?) -> satchel_status {
    scalar(outBool, value, "a bool") { $0.boolValue.map { $0 ? 1 : 0 } }
}

@c @implementation
public func satchel_value_get_int64(
    _ outInteger: UnsafeMutablePointer<Int64>?, _ value: OpaquePointer?
) -> satchel_status {
    scalar(outInteger, value, "an integer") { value in
        if case .unsignedInteger(let big) = value, big > UInt64(Int64.max) {
            throw SatchelError(.numberOutOfRange, "the integer \(big) is above INT64_MAX; use satchel_value_get_uint64")
        }
        return value.int64Value
    }
}

@c @implementation
public func satchel_value_get_uint64(
    _ outInteger: UnsafeMutablePointer<UInt64>?, _ value: OpaquePointer?
) -> satchel_status {
    scalar(outInteger, value, "an integer") { value in
        if case .integer(let negative) = value, negative < 0 {
            throw SatchelError(.numberOutOfRange, "the integer \(negative) is negative; use satchel_value_get_int64")
        }
        return value.uint64Value
    }
}

@c @implementation
public func satchel_value_get_double(
    _ outDouble: UnsafeMutablePointer<Double>?, _ value: OpaquePointer?
) -> satchel_status {
    scalar(outDouble, value, "a number") { $0.doubleValue }
}

@c @implementation
public func satchel_value_get_date(
    _ outSeconds: UnsafeMutablePointer<Double>?, _ value: OpaquePointer?
) -> satchel_status {
    scalar(outSeconds, value, "a date") { $0.dateValue?.timeIntervalSince1970 }
}

@c @implementation
public func satchel_value_get_string(
    _ outString: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ value: OpaquePointer?
) -> satchel_status {
    outString?.pointee = nil
    outLength?.pointee = 0
    return guarded {
        let out = try Arguments.required(outString, "out_string")
        let handle = try ValueHandle.from(value)
        guard let string = handle.value.stringValue else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not a string")
        }
        store(handle.buffer(.scalar) { CBuffer(string) }, out, outLength)
    }
}

@c @implementation
public func satchel_value_get_bytes(
    _ outBytes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ value: OpaquePointer?
) -> satchel_status {
    outBytes?.pointee = nil
    outLength?.pointee = 0
    return guarded {
        let out = try Arguments.required(outBytes, "out_bytes")
        let handle = try ValueHandle.from(value)
        guard let bytes = handle.value.bytesValue else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not bytes")
        }
        let buffer = handle.buffer(.scalar) { CBuffer(bytes) }
        out.pointee = UnsafePointer(buffer.pointer)
        outLength?.pointee = buffer.count
    }
}

// MARK: Containers

@c @implementation
public func satchel_value_count(_ outCount: UnsafeMutablePointer<Int>?, _ value: OpaquePointer?) -> satchel_status {
    scalar(outCount, value, "an array, an object or a multipart value") { value in
        switch value {
        case .array(let elements): elements.count
        case .object(let members): members.count
        case .payload(let payload as MultipartParts): payload.count
        default: nil
        }
    }
}

@c @implementation
public func satchel_value_array_get(
    _ outElement: UnsafeMutablePointer<OpaquePointer?>?, _ array: OpaquePointer?, _ index: Int
) -> satchel_status {
    outElement?.pointee = nil
    return guarded {
        let out = try Arguments.required(outElement, "out_element")
        let handle = try ValueHandle.from(array, "array")
        guard let elements = handle.value.arrayValue else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not an array")
        }
        guard elements.indices.contains(index) else {
            throw SatchelError(
                .valueNotFound, "index \(UInt(bitPattern: index)) is past the end of an array of \(elements.count)")
        }
        out.pointee = handle.child(.element(index)) { elements[index] }.borrowedPointer
    }
}

@c @implementation
public func satchel_value_object_get(
    _ outMember: UnsafeMutablePointer<OpaquePointer?>?, _ object: OpaquePointer?, _ key: UnsafePointer<CChar>?,
    _ keyLength: Int
) -> satchel_status {
    outMember?.pointee = nil
    return guarded {
        let out = try Arguments.required(outMember, "out_member")
        let handle = try ValueHandle.from(object, "object")
        let key = try Arguments.string(key, keyLength, "key")
        guard let members = handle.value.objectValue else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not an object")
        }
        guard let index = members.index(forKey: key) else {
            throw SatchelError(.valueNotFound, "no member \"\(key)\"")
        }
        out.pointee = handle.child(.element(index)) { members.values[index] }.borrowedPointer
    }
}

@c @implementation
public func satchel_value_object_entry(
    _ outKey: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outKeyLength: UnsafeMutablePointer<Int>?,
    _ outMember: UnsafeMutablePointer<OpaquePointer?>?, _ object: OpaquePointer?, _ index: Int
) -> satchel_status {
    outKey?.pointee = nil
    outKeyLength?.pointee = 0
    outMember?.pointee = nil
    return guarded {
        let keyOut = try Arguments.required(outKey, "out_key")
        let memberOut = try Arguments.required(outMember, "out_member")
        let handle = try ValueHandle.from(object, "object")
        guard let members = handle.value.objectValue else {
            throw SatchelError(.typeMismatch, "the value is \(handle.value.kindName), not an object")
        }
        guard members.elements.indices.contains(index) else {
            throw SatchelError(
                .valueNotFound, "index \(UInt(bitPattern: index)) is past the end of an object of \(members.count)")
        }
        store(handle.buffer(.memberKey(index)) { CBuffer(members.keys[index]) }, keyOut, outKeyLength)
        memberOut.pointee = handle.child(.element(index)) { members.values[index] }.borrowedPointer
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
