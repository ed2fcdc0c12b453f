// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Transport

// The HTTP cache (include/satchel.h, "The HTTP cache").

/// The object behind a `satchel_cache *`.
final class CacheHandle: Sendable, CHandle {
    static let parameterName = "cache"

    let cache: HTTPCache

    init(_ cache: HTTPCache) {
        self.cache = cache
    }
}

@c @implementation
public func satchel_cache_create(
    _ outCache: UnsafeMutablePointer<OpaquePointer?>?, _ path: UnsafePointer<CChar>?, _ maxBytes: Int64
) -> satchel_status {
    outCache?.pointee = nil
    return guarded {
        let out = try Arguments.required(outCache, "out_cache")
        let path = try path.map { _ throws(SatchelError) in try Arguments.path(path, "path") }
        guard maxBytes >= 0 else { throw SatchelError(.invalidArgument, "max_bytes: \(maxBytes) is negative") }
        let cache: HTTPCache
        if let path {
            cache = try HTTPCache(
                memoryCapacity: 0, directory: path, diskCapacity: maxBytes == 0 ? 256 << 20 : maxBytes)
        } else {
            guard maxBytes <= Int64(Int32.max) else {
                throw SatchelError(.invalidArgument, "max_bytes: \(maxBytes) is too large for a cache in memory")
            }
            cache = try HTTPCache(memoryCapacity: maxBytes == 0 ? 4 << 20 : Int(maxBytes))
        }
        out.pointee = CacheHandle(cache).retainedPointer
    }
}

@c @implementation
public func satchel_cache_clear(_ cache: OpaquePointer?) -> satchel_status {
    guarded { try CacheHandle.from(cache).cache.removeAll() }
}

@c @implementation
public func satchel_cache_free(_ cache: OpaquePointer?) {
    CacheHandle.release(cache)
}

@c @implementation
public func satchel_session_set_cache(_ session: OpaquePointer?, _ cache: OpaquePointer?) -> satchel_status {
    guarded {
        let handle = try cache.map { _ throws(SatchelError) in try CacheHandle.from(cache) }
        try SessionHandle.from(session).configure { $0.cache = handle?.cache }
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
