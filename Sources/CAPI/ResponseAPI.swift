import CSatchel
import HTTPTypes
import SerializerRegistry
import Transport

// Responses: status, headers, body, decoded value.

@c @implementation
public func satchel_response_free(_ response: OpaquePointer?) {
    ResponseHandle.release(response)
}

@c @implementation
public func satchel_response_status(_ response: OpaquePointer?) -> Int32 {
    guard let handle = try? ResponseHandle.from(response) else { return 0 }
    return Int32(handle.response.response?.status.code ?? 0)
}

@c @implementation
public func satchel_response_header_count(_ response: OpaquePointer?) -> Int {
    (try? ResponseHandle.from(response))?.headers.count ?? 0
}

@c @implementation
public func satchel_response_header_at(
    _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outNameLength: UnsafeMutablePointer<Int>?,
    _ outValue: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outValueLength: UnsafeMutablePointer<Int>?,
    _ response: OpaquePointer?, _ index: Int
) -> satchel_status {
    clear(outName, outNameLength, outValue, outValueLength)
    return guarded {
        let nameOut = try Arguments.required(outName, "out_name")
        let valueOut = try Arguments.required(outValue, "out_value")
        let headers = try ResponseHandle.from(response).headers
        guard headers.indices.contains(index) else {
            throw SatchelError(
                .valueNotFound, "the response has \(headers.count) header fields, not \(UInt(bitPattern: index) + 1)")
        }
        store(headers[index].name, nameOut, outNameLength)
        store(headers[index].value, valueOut, outValueLength)
    }
}

@c @implementation
public func satchel_response_header(
    _ outValue: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outValueLength: UnsafeMutablePointer<Int>?,
    _ response: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int
) -> satchel_status {
    outValue?.pointee = nil
    outValueLength?.pointee = 0
    return guarded {
        let valueOut = try Arguments.required(outValue, "out_value")
        let headers = try ResponseHandle.from(response).headers
        let wanted = try Arguments.string(name, nameLength, "name").lowercased()
        guard let header = headers.first(where: { String(cString: $0.name.cString).lowercased() == wanted }) else {
            throw SatchelError(.valueNotFound, "the response has no \(wanted) header")
        }
        store(header.value, valueOut, outValueLength)
    }
}

@c @implementation
public func satchel_response_body(
    _ outBody: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ response: OpaquePointer?
) -> satchel_status {
    outBody?.pointee = nil
    outLength?.pointee = 0
    return guarded {
        let out = try Arguments.required(outBody, "out_body")
        let body = try ResponseHandle.from(response).body
        out.pointee = UnsafePointer(body.pointer)
        outLength?.pointee = body.count
    }
}

@c @implementation
public func satchel_response_value(_ response: OpaquePointer?) -> OpaquePointer? {
    (try? ResponseHandle.from(response))?.value?.borrowedPointer
}
