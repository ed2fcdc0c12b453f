// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

// Readers: a body decoded as it arrives (include/satchel.h, "Readers").

@c @implementation
public func satchel_reader_create(
    _ outReader: UnsafeMutablePointer<OpaquePointer?>?, _ registry: OpaquePointer?,
    _ contentType: UnsafePointer<CChar>?, _ contentTypeLength: Int
) -> satchel_status {
    outReader?.pointee = nil
    return guarded {
        let out = try Arguments.required(outReader, "out_reader")
        let registry = try RegistryHandle.from(registry).registry
        let mediaType = try Arguments.optionalMediaType(contentType, contentTypeLength, "content_type")
        out.pointee = try ReaderHandle(registry: registry, contentType: mediaType).retainedPointer
    }
}

@c @implementation
public func satchel_reader_create_each(
    _ outReader: UnsafeMutablePointer<OpaquePointer?>?, _ registry: OpaquePointer?,
    _ contentType: UnsafePointer<CChar>?, _ contentTypeLength: Int, _ path: UnsafePointer<CChar>?,
    _ pathLength: Int, _ namespaces: OpaquePointer?
) -> satchel_status {
    outReader?.pointee = nil
    return guarded {
        let out = try Arguments.required(outReader, "out_reader")
        let registry = try RegistryHandle.from(registry).registry
        let mediaType = try Arguments.mediaType(contentType, contentTypeLength, "content_type")
        out.pointee = try ReaderHandle(
            registry: registry, contentType: mediaType, each: try Arguments.string(path, pathLength, "path"),
            namespaces: try Arguments.namespaces(namespaces)
        ).retainedPointer
    }
}

@c @implementation
public func satchel_reader_rest(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ reader: OpaquePointer?
) -> satchel_status {
    outValue?.pointee = nil
    var found = true
    let status = guarded {
        let out = try Arguments.required(outValue, "out_value")
        guard let rest = try ReaderHandle.from(reader).rest else {
            found = false
            return
        }
        out.pointee = ValueHandle.retained(rest)
    }
    return found ? status : SATCHEL_E_NOT_FOUND
}

@c @implementation
public func satchel_reader_yields_records(_ reader: OpaquePointer?) -> Int32 {
    guard let reader else { return 0 }
    return (try? ReaderHandle.from(reader).yieldsRecords) == true ? 1 : 0
}

@c @implementation
public func satchel_reader_feed(_ reader: OpaquePointer?, _ data: UnsafeRawPointer?, _ length: Int) -> satchel_status {
    guarded {
        let handle = try ReaderHandle.from(reader)
        let bytes = try Arguments.bytes(data, length, "data")
        try handle.use.run("satchel_reader_feed") { () throws(SatchelError) in try handle.feed(bytes) }
    }
}

@c @implementation
public func satchel_reader_finish(_ reader: OpaquePointer?) -> satchel_status {
    guarded {
        let handle = try ReaderHandle.from(reader)
        try handle.use.run("satchel_reader_finish") { () throws(SatchelError) in try handle.finish() }
    }
}

@c @implementation
public func satchel_reader_next(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ reader: OpaquePointer?
) -> satchel_status {
    outValue?.pointee = nil
    var ready = true
    let status = guarded {
        let out = try Arguments.required(outValue, "out_value")
        let handle = try ReaderHandle.from(reader)
        guard let value = try handle.use.run("satchel_reader_next", { () throws(SatchelError) in handle.next() }) else {
            ready = false
            return
        }
        out.pointee = ValueHandle.retained(value)
    }
    // "Nothing ready" is the loop's normal end: the message of a feed's error stays readable.
    return ready ? status : SATCHEL_E_NOT_FOUND
}

@c @implementation
public func satchel_reader_free(_ reader: OpaquePointer?) {
    ReaderHandle.release(reader)
}
