// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Transport

// The HTTP cache (include/satchel.h, "The HTTP cache"); a session takes one with
// satchel_session_set_cache, a request its policy with satchel_request_set_cache_policy.

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
