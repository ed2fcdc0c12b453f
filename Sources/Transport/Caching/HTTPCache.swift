// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Synchronization

/// A private HTTP cache (RFC 9111) that sessions share through
/// ``SessionConfiguration/cache``: in memory, in a directory, or both, each bounded in bytes
/// with the least recently used entries evicted first. AFNetworking relies on `NSURLCache` for
/// this; the parameters are its parameters.
///
/// ```swift
/// let cache = try HTTPCache(directory: "/var/cache/my-tool/http", diskCapacity: 512 << 20)
/// var configuration = SessionConfiguration()
/// configuration.cache = cache
/// let session = try Session(baseURL: "https://api.example.com/", configuration: configuration)
/// let first = try await session.get("catalog")   // from the origin, stored
/// let again = try await session.get("catalog")   // from the cache while fresh
/// print(again.metrics.cache!)                     // hit
/// ```
///
/// What is stored: responses to `GET` that RFC 9111 §3 allows a private cache to keep (no
/// `no-store` in the request or the response; `private` is fine; a request with
/// `Authorization` only when the response says `public`, `must-revalidate` or `s-maxage`;
/// a status cacheable by default, or any final status given explicit freshness; not `206`, not
/// `Vary: *`), whose body is at most ``maximumEntrySize`` bytes. Entries are keyed by method
/// and URL and, when the response has `Vary`, the request's values of the fields it names: each
/// variant is stored apart and served only to requests with the same values. How long: see
/// ``CachePolicy/useProtocol`` and Sources/Satchel/Satchel.docc/Caching.md. Clearing: ``removeAll()``, or delete the
/// directory.
public final class HTTPCache: Sendable {
    /// The directory entries are kept in, if any.
    public var directory: String? { disk?.path }
    /// The bytes of bodies kept in memory at most.
    public let memoryCapacity: Int
    /// The bytes of entry files kept in the directory at most.
    public let diskCapacity: Int64
    /// The largest body stored; a longer response is passed through and not stored.
    public let maximumEntrySize: Int64

    let disk: CacheDirectory?
    private let memory: Mutex<MemoryStore>
    /// The `Vary` records of URLs, for a cache without a directory (``varyRecord(for:)``).
    let varyRecords = Mutex<[String: VaryRecord]>([:])

    /// Bodies kept in memory, with their entries, least recently used evicted first.
    struct MemoryStore {
        var entries: [String: (entry: CachedEntry, body: [UInt8], lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// A cache in memory, in `directory`, or both.
    ///
    /// - Parameters:
    ///   - memoryCapacity: Bytes of bodies kept in memory (4 MiB by default; `0`: none). With a
    ///     directory too, memory keeps the bodies of at most an eighth of this each, as a copy of
    ///     recently used entries.
    ///   - directory: Where entries are kept on disk (made with mode 0700 when missing), or `nil`.
    ///   - diskCapacity: Bytes of entry files kept in `directory` (256 MiB by default).
    ///   - maximumEntrySize: The largest body stored (64 MiB by default).
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a negative size;
    ///   ``SatchelError/Code/io`` when the directory cannot be made.
    public init(
        memoryCapacity: Int = 4 << 20, directory: String? = nil, diskCapacity: Int64 = 256 << 20,
        maximumEntrySize: Int64 = 64 << 20
    ) throws(SatchelError) {
        guard memoryCapacity >= 0, diskCapacity >= 0, maximumEntrySize >= 0 else {
            throw SatchelError(.invalidArgument, "a cache's capacities and maximum entry size cannot be negative")
        }
        guard directory?.isEmpty != true else {
            throw SatchelError(.invalidArgument, "a cache directory cannot be an empty path")
        }
        self.memoryCapacity = memoryCapacity
        self.diskCapacity = diskCapacity
        self.maximumEntrySize = maximumEntrySize
        disk = try directory.map { path throws(SatchelError) in try CacheDirectory(path: path, capacity: diskCapacity) }
        memory = Mutex(MemoryStore())
    }

    /// Bytes of bodies now kept in memory.
    public var memoryUsage: Int { memory.withLock { $0.bytes } }

    /// Bytes of entry files in the directory that this process knows of (its own writes and
    /// what was there when the cache was made).
    public var diskUsage: Int64 { disk?.usage ?? 0 }

    /// Removes every stored response, in memory and in the directory.
    public func removeAll() {
        memory.withLock { $0 = MemoryStore() }
        varyRecords.withLock { $0.removeAll() }
        disk?.removeAll()
    }

    /// Removes the stored response to `method` `url` (an absolute URL), if any.
    public func removeResponse(for url: String, method: HTTPRequest.Method = .get) {
        remove(Self.key(method: method, url: url))
    }

    /// The largest body memory keeps.
    var memoryEntryLimit: Int {
        let limit = disk == nil ? memoryCapacity : memoryCapacity / 8
        return Int(min(Int64(limit), maximumEntrySize))
    }

    /// `METHOD URL`: an entry's primary key (RFC 9111 §2), the URL without its fragment.
    static func key(method: HTTPRequest.Method, url: String) -> String {
        let withoutFragment = url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
        return method.rawValue + " " + withoutFragment
    }

    /// The stored entry for the URL whose primary key is `primary` and its body: the variant
    /// `request` selects when the URL's responses vary.
    func lookup(_ primary: String, request: HTTPFields) -> (CachedEntry, CachedBody)? {
        let key = Self.variantKey(primary, varyRecord(for: primary), request: request)
        let inMemory = memory.withLock { store -> (CachedEntry, [UInt8])? in
            guard let found = store.entries[key] else { return nil }
            store.clock += 1
            store.entries[key]?.lastUse = store.clock
            return (found.entry, found.body)
        }
        let found: (CachedEntry, CachedBody)
        if let (entry, bytes) = inMemory {
            found = (entry, CachedBody(.bytes(bytes)))
        } else if let (entry, body) = disk?.read(key) {
            if body.count <= Int64(memoryEntryLimit), let bytes = body.bytes() { remember(entry, body: bytes) }
            found = (entry, body)
        } else {
            return nil
        }
        for (name, value) in found.0.varied where Self.value(of: name, in: request) != value { return nil }
        return found
    }

    /// Keeps `entry` in memory when its body is small enough, evicting least recently used ones.
    func remember(_ entry: CachedEntry, body: [UInt8]) {
        guard body.count <= memoryEntryLimit else { return }
        memory.withLock { store in
            if let old = store.entries[entry.key] { store.bytes -= old.body.count }
            store.clock += 1
            store.entries[entry.key] = (entry, body, store.clock)
            store.bytes += body.count
            while store.bytes > memoryCapacity,
                let victim = store.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                store.bytes -= victim.value.body.count
                store.entries[victim.key] = nil
            }
        }
    }

    /// Removes what is stored for the URL whose primary key is `primary`, every variant of it
    /// (those on disk become unreachable with its `Vary` record, and are evicted in time).
    func remove(_ primary: String) {
        memory.withLock { store in
            let doomed = store.entries.keys.filter { $0 == primary || $0.hasPrefix(primary + "\n") }
            for key in doomed {
                if let old = store.entries.removeValue(forKey: key) { store.bytes -= old.body.count }
            }
        }
        disk?.remove(primary)
        removeVaryRecord(for: primary)
    }

    /// Replaces the entry for `entry.key` by `entry` with `body` (after a `304`): the body is
    /// copied to a new entry file, in chunks.
    func replace(_ entry: CachedEntry, body: CachedBody) {
        if body.count <= Int64(memoryEntryLimit), let bytes = body.bytes() { remember(entry, body: bytes) }
        guard let disk, let writer = try? disk.makeWriter() else { return }
        let copied = body.forEachChunk { chunk in
            chunk.withUnsafeBytes { writer.appendBody($0) }
            return true
        }
        if copied { _ = writer.commit(entry) }
    }

    /// The request's value of field `name` for `Vary` matching: its field lines combined, or `nil`.
    static func value(of name: String, in fields: HTTPFields) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        let values = fields[values: fieldName]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
