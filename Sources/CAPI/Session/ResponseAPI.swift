// SPDX-License-Identifier: Apache-2.0
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
    return Int32(handle.response.response.status.code)
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

@c @implementation
public func satchel_response_download(
    _ outFileSize: UnsafeMutablePointer<Int64>?, _ outResumedFrom: UnsafeMutablePointer<Int64>?,
    _ response: OpaquePointer?
) -> satchel_status {
    outFileSize?.pointee = 0
    outResumedFrom?.pointee = 0
    return guarded {
        let handle = try ResponseHandle.from(response)
        guard let download = handle.download else {
            throw SatchelError(.valueNotFound, "the response is not of a download that saved a file")
        }
        outFileSize?.pointee = download.fileSize
        outResumedFrom?.pointee = download.resumedFrom
    }
}

@c @implementation
public func satchel_response_metrics(
    _ metrics: UnsafeMutablePointer<satchel_metrics>?, _ response: OpaquePointer?
) -> satchel_status {
    guarded {
        let metrics = try Arguments.versioned(metrics, "metrics")
        let handle = try ResponseHandle.from(response)
        metrics.pointee.fill(from: handle.response.metrics, httpVersion: handle.httpVersion)
    }
}

extension satchel_metrics {
    /// The C form of `metrics`, its HTTP version pointing into `httpVersion` (which must outlive
    /// it); `struct_size` and `abi_version` are left as they are.
    mutating func fill(from metrics: TransferMetrics, httpVersion: CBuffer) {
        name_lookup_ms = metrics.nameLookup.milliseconds
        connect_ms = metrics.connect.milliseconds
        tls_handshake_ms = metrics.tlsHandshake.milliseconds
        first_byte_ms = metrics.firstByte.milliseconds
        total_ms = metrics.total.milliseconds
        elapsed_ms = metrics.elapsed.milliseconds
        bytes_sent = metrics.bytesSent
        bytes_received = metrics.bytesReceived
        redirect_count = UInt32(clamping: metrics.redirectCount)
        retry_count = UInt32(clamping: metrics.retryCount)
        reused_connection = metrics.reusedConnection ? 1 : 0
        http_version = httpVersion.cString
    }
}

extension Duration {
    /// The duration in milliseconds, with fractions.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

@c @implementation
public func satchel_response_cache(
    _ outOutcome: UnsafeMutablePointer<satchel_cache_outcome>?,
    _ outReason: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ response: OpaquePointer?
) -> satchel_status {
    outReason?.pointee = nil
    return guarded {
        let out = try Arguments.required(outOutcome, "out_outcome")
        let handle = try ResponseHandle.from(response)
        out.pointee =
            switch handle.response.metrics.cache {
            case nil: SATCHEL_CACHE_NOT_USED
            case .hit: SATCHEL_CACHE_HIT
            case .miss: SATCHEL_CACHE_MISS
            case .revalidated: SATCHEL_CACHE_REVALIDATED
            case .stored: SATCHEL_CACHE_STORED
            case .notStored: SATCHEL_CACHE_NOT_STORED
            }
        outReason?.pointee = handle.cacheReason?.cString
    }
}
