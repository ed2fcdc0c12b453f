// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

private let versionString = CBuffer(DefaultHeaders.satchelVersion)

@c @implementation
public func satchel_version() -> UnsafePointer<CChar>? {
    versionString.cString
}

@c @implementation
public func satchel_version_number() -> Int32 {
    let numbers = DefaultHeaders.satchelVersion.split(separator: ".").map { Int32($0) ?? 0 }
    let padded = numbers + [0, 0, 0]
    return padded[0] * 1_000_000 + padded[1] * 1_000 + padded[2]
}

@c @implementation
public func satchel_status_string(_ status: satchel_status) -> UnsafePointer<CChar>? {
    switch status {
    case SATCHEL_OK: StaticCString.pointer(to: "ok")
    case SATCHEL_E_INVALID_ARGUMENT: StaticCString.pointer(to: "invalid argument")
    case SATCHEL_E_SYNTAX: StaticCString.pointer(to: "syntax error")
    case SATCHEL_E_TRUNCATED: StaticCString.pointer(to: "truncated input")
    case SATCHEL_E_LIMIT: StaticCString.pointer(to: "limit exceeded")
    case SATCHEL_E_ENCODING: StaticCString.pointer(to: "invalid encoding")
    case SATCHEL_E_NUMBER_RANGE: StaticCString.pointer(to: "number out of range")
    case SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE: StaticCString.pointer(to: "unacceptable content type")
    case SATCHEL_E_UNACCEPTABLE_STATUS: StaticCString.pointer(to: "unacceptable status code")
    case SATCHEL_E_TYPE_MISMATCH: StaticCString.pointer(to: "type mismatch")
    case SATCHEL_E_NOT_FOUND: StaticCString.pointer(to: "not found")
    case SATCHEL_E_UNENCODABLE: StaticCString.pointer(to: "unencodable value")
    case SATCHEL_E_INVALID_MEDIA_TYPE: StaticCString.pointer(to: "invalid media type")
    case SATCHEL_E_IO: StaticCString.pointer(to: "input/output error")
    case SATCHEL_E_INTERNAL: StaticCString.pointer(to: "internal error")
    case SATCHEL_E_UNSUPPORTED_FORMAT: StaticCString.pointer(to: "unsupported format")
    case SATCHEL_E_CANCELLED: StaticCString.pointer(to: "cancelled")
    case SATCHEL_E_TIMED_OUT: StaticCString.pointer(to: "timed out")
    case SATCHEL_E_CANNOT_CONNECT: StaticCString.pointer(to: "cannot connect")
    case SATCHEL_E_TLS: StaticCString.pointer(to: "TLS failure")
    case SATCHEL_E_TOO_MANY_REDIRECTS: StaticCString.pointer(to: "too many redirects")
    case SATCHEL_E_NETWORK: StaticCString.pointer(to: "network failure")
    case SATCHEL_E_NO_MEMORY: StaticCString.pointer(to: "out of memory")
    case SATCHEL_E_MISUSE: StaticCString.pointer(to: "library misuse")
    case SATCHEL_E_ABI_MISMATCH: StaticCString.pointer(to: "ABI version mismatch")
    case SATCHEL_E_PLUGIN: StaticCString.pointer(to: "plugin failure")
    default: StaticCString.pointer(to: "unknown status")
    }
}

@c @implementation
public func satchel_last_error_message() -> UnsafePointer<CChar>? {
    LastError.message
}

@c @implementation
public func satchel_free(_ buffer: UnsafeMutableRawPointer?) {
    free(buffer)
}
