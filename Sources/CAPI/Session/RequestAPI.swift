// SPDX-License-Identifier: Apache-2.0
import CSatchel
import HTTPTypes
import SerializerRegistry
import Serializers
import Transport

// Requests: method, URL, headers, body, destination, callbacks, credential, cache policy, rate
// limit (include/satchel.h, "Transport").

@c @implementation
public func satchel_request_create(
    _ outRequest: UnsafeMutablePointer<OpaquePointer?>?, _ method: UnsafePointer<CChar>?, _ methodLength: Int,
    _ url: UnsafePointer<CChar>?, _ urlLength: Int
) -> satchel_status {
    outRequest?.pointee = nil
    return guarded {
        let out = try Arguments.required(outRequest, "out_request")
        let methodText = try Arguments.string(method, methodLength, "method")
        guard let parsed = HTTPRequest.Method(methodText) else {
            throw SatchelError(.invalidArgument, "method: \"\(methodText)\" is not an HTTP method token")
        }
        let handle = RequestHandle(method: parsed, url: try Arguments.string(url, urlLength, "url"))
        out.pointee = handle.retainedPointer
    }
}

@c @implementation
public func satchel_request_free(_ request: OpaquePointer?) {
    RequestHandle.release(request)
}

@c @implementation
public func satchel_request_add_header(
    _ request: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int, _ value: UnsafePointer<CChar>?,
    _ valueLength: Int
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        let field = try HTTPField.Name.parse(Arguments.string(name, nameLength, "name"))
        let value = try HTTPField.checkedValue(Arguments.string(value, valueLength, "value"))
        handle.headers.append(HTTPField(name: field, value: value))
    }
}

@c @implementation
public func satchel_request_set_parameters(
    _ request: OpaquePointer?, _ parameters: OpaquePointer?, _ mediaType: UnsafePointer<CChar>?, _ mediaTypeLength: Int
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        let value = try ValueHandle.from(parameters, "parameters").value
        handle.parameterType = try mediaType.map { _ throws(SatchelError) in
            try Arguments.mediaType(mediaType, mediaTypeLength, "media_type")
        }
        handle.parameters = value
    }
}

@c @implementation
public func satchel_request_set_body(
    _ request: OpaquePointer?, _ body: UnsafeRawPointer?, _ length: Int, _ contentType: UnsafePointer<CChar>?,
    _ contentTypeLength: Int
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        let bytes = Array(try Arguments.bytes(body, length, "body"))
        let type = try Arguments.optionalString(contentType, contentTypeLength, "content_type")
        handle.body = .bytes(
            bytes, contentType: try type.map { text throws(SatchelError) in try MediaType(parsing: text) })
    }
}

@c @implementation
public func satchel_request_set_body_file(
    _ request: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ contentType: UnsafePointer<CChar>?,
    _ contentTypeLength: Int
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        let path = try Arguments.path(path, "path")
        let type = try Arguments.optionalString(contentType, contentTypeLength, "content_type")
        handle.body = .file(
            path: path, contentType: try type.map { text throws(SatchelError) in try MediaType(parsing: text) })
    }
}

@c @implementation
public func satchel_request_set_body_multipart(_ request: OpaquePointer?, _ multipart: OpaquePointer?) -> satchel_status
{
    guarded {
        let handle = try RequestHandle.from(request)
        let builder = try MultipartHandle.from(multipart)
        guard builder.stream == nil else {
            throw SatchelError(.misuse, "the multipart body has been read from; pass a builder that has not")
        }
        handle.body = .multipart(builder.form)
        satchel_multipart_free(multipart)
    }
}

@c @implementation
public func satchel_request_set_destination(
    _ request: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ flags: UInt32
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        guard let path else {
            handle.destination = .memory
            return
        }
        guard flags & ~UInt32(SATCHEL_DOWNLOAD_RESUME | SATCHEL_DOWNLOAD_NO_SYNC) == 0 else {
            throw SatchelError(.invalidArgument, "flags: \(flags) has bits that are not SATCHEL_DOWNLOAD_* flags")
        }
        handle.destination = .file(
            path: try Arguments.path(path, "path"), resume: flags & UInt32(SATCHEL_DOWNLOAD_RESUME) != 0,
            durability: flags & UInt32(SATCHEL_DOWNLOAD_NO_SYNC) != 0 ? .none : .synced)
    }
}

@c @implementation
public func satchel_request_set_data_callback(
    _ request: OpaquePointer?, _ onData: satchel_data_callback?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        handle.destination = onData.map { .callback(DataCallback(function: $0, userdata: userdata)) } ?? .memory
    }
}

@c @implementation
public func satchel_request_set_record_callback(
    _ request: OpaquePointer?, _ onRecord: satchel_record_callback?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        handle.destination = onRecord.map { .records(RecordCallback(function: $0, userdata: userdata)) } ?? .memory
    }
}

@c @implementation
public func satchel_request_set_record_path(
    _ request: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ pathLength: Int, _ namespaces: OpaquePointer?
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        handle.recordPath = try Arguments.optionalString(path, pathLength, "path").map { path throws(SatchelError) in
            (path, try Arguments.namespaces(namespaces))
        }
    }
}

@c @implementation
public func satchel_request_set_progress(
    _ request: OpaquePointer?, _ progress: satchel_progress_callback?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        handle.progress = progress
        handle.progressUserdata = userdata
    }
}

@c @implementation
public func satchel_request_set_cache_policy(
    _ request: OpaquePointer?, _ policy: satchel_cache_policy
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        handle.cachePolicy =
            switch policy {
            case SATCHEL_CACHE_POLICY_PROTOCOL: .useProtocol
            case SATCHEL_CACHE_POLICY_RELOAD: .reload
            case SATCHEL_CACHE_POLICY_PREFER_CACHE: .preferCache
            case SATCHEL_CACHE_POLICY_ONLY_CACHE: .onlyCache
            case SATCHEL_CACHE_POLICY_REVALIDATE: .revalidate
            default: throw SatchelError(.invalidArgument, "policy: \(policy.rawValue) is not a satchel_cache_policy")
            }
    }
}

@c @implementation
public func satchel_request_set_rate_limit(
    _ request: OpaquePointer?, _ upload: UInt64, _ download: UInt64
) -> satchel_status {
    guarded {
        let limit = try RateLimit(upload, download)
        try RequestHandle.from(request).rateLimit = limit
    }
}

@c @implementation
public func satchel_request_set_acceptable_statuses(
    _ request: OpaquePointer?, _ ranges: UnsafePointer<UInt16>?, _ count: Int
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        // A size_t past PTRDIFF_MAX arrives negative: refused, not read as "every status".
        guard count >= 0, count <= Int.max / 4 else {
            throw SatchelError(.invalidArgument, "count: \(UInt(bitPattern: count)) ranges is too many")
        }
        guard count > 0 else {
            handle.acceptableStatuses = []
            return
        }
        let pairs = try Arguments.required(ranges, "ranges")
        var accepted: [Range<Int>] = []
        for index in 0..<count {
            let first = Int(pairs[2 * index])
            let last = Int(pairs[2 * index + 1])
            guard (100...599).contains(first), (100...599).contains(last), first <= last else {
                throw SatchelError(
                    .invalidArgument,
                    "range \(index) is \(first) to \(last): statuses lie in 100 to 599, the last not below the first")
            }
            accepted.append(first..<last + 1)
        }
        handle.acceptableStatuses = accepted
    }
}

@c @implementation
public func satchel_request_set_credential(
    _ request: OpaquePointer?, _ user: UnsafePointer<CChar>?, _ userLength: Int, _ password: UnsafePointer<CChar>?,
    _ passwordLength: Int, _ method: satchel_auth
) -> satchel_status {
    guarded {
        let handle = try RequestHandle.from(request)
        handle.credential = try Credential(user, userLength, password, passwordLength, method)
    }
}

extension Credential {
    /// The credential C passed in; `nil` for a NULL user.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an unknown method or bad strings.
    init?(
        _ user: UnsafePointer<CChar>?, _ userLength: Int, _ password: UnsafePointer<CChar>?, _ passwordLength: Int,
        _ method: satchel_auth
    ) throws(SatchelError) {
        guard user != nil else { return nil }
        let kind: Method =
            switch method {
            case SATCHEL_AUTH_BASIC: .basic
            case SATCHEL_AUTH_DIGEST: .digest
            case SATCHEL_AUTH_NTLM: .ntlm
            case SATCHEL_AUTH_ANY: .any
            default: throw SatchelError(.invalidArgument, "method: \(method.rawValue) is not a satchel_auth")
            }
        self.init(
            user: try Arguments.string(user, userLength, "user"),
            password: password == nil ? "" : try Arguments.string(password, passwordLength, "password"), method: kind)
    }
}
