// SPDX-License-Identifier: Apache-2.0
import Glibc
import HTTPTypes
import SerializerRegistry

/// Passes a response on to the sink of its consumer and stores it in an ``HTTPCache`` as it
/// arrives, when RFC 9111 §3 allows: the body goes to a temporary file in the cache directory
/// (and to memory when small), bytes the consumer took only, and the entry is put in place
/// when the body has ended whole. Called by the thread driving the transfer, one at a time, as every sink.
final class CacheSink: ResponseSink {
    private let inner: any ResponseSink
    private let cache: HTTPCache
    /// The URL's primary key; the entry's own key is its variant's (``HTTPCache/variantKey(_:_:request:)``).
    private let key: String
    /// The fields the response's `Vary` names.
    private var varying: [String] = []
    private let request: HTTPRequest
    private let requestTime: Int64
    /// libcurl decoded the body (`Content-Encoding`), so the stored fields must not claim it.
    private let decodesContent: Bool
    private var entry: CachedEntry?
    private var writer: CacheDirectory.Writer?
    private var memoryCopy: [UInt8]?
    private var length: Int64 = 0
    /// The request validates a stored entry: a `304` is kept from the consumer, who gets the
    /// stored response instead (``Session/serve(_:body:outcome:into:cancellation:)``).
    private let validates: Bool
    private var swallowsResponse = false
    /// What happened, once the transfer finished: `nil` when it failed.
    private(set) var outcome: CacheOutcome?

    init(
        inner: any ResponseSink, cache: HTTPCache, key: String, request: HTTPRequest, decodesContent: Bool,
        validates: Bool
    ) {
        self.inner = inner
        self.validates = validates
        self.cache = cache
        self.key = key
        self.request = request
        self.requestTime = Int64(time(nil))
        self.decodesContent = decodesContent
    }

    var initialOffset: Int64 { inner.initialOffset }
    var hasHandedOn: Bool { inner.hasHandedOn }

    func begin(_ response: HTTPResponse) throws(SatchelError) {
        swallowsResponse = validates && response.status.code == 304
        guard !swallowsResponse else { return }
        try inner.begin(response)
        (entry, writer, memoryCopy, length) = (nil, nil, nil, 0)
        if let reason = cache.reasonNotToStore(request, response) {
            outcome = .notStored(reason: reason)
            return
        }
        let encoding = response.headerFields[.contentEncoding]?.trimmingSpacesAndTabs.lowercased() ?? "identity"
        if !decodesContent && encoding != "identity" {
            // A download keeps the body as sent; the cache serves bodies decoded.
            outcome = .notStored(reason: "a body kept in its Content-Encoding, \(encoding)")
            return
        }
        var fields = response.headerFields
        for name in [HTTPField.Name.transferEncoding, .connection, .init("Keep-Alive")!] { fields[name] = nil }
        if decodesContent { fields[.contentEncoding] = nil }
        var varied: [String: String?] = [:]
        varying = response.headerFields[values: .vary].flatMap { $0.split(separator: ",").map(String.init) }
        for name in varying {
            let lowercased = name.trimmingSpacesAndTabs.lowercased()
            if !lowercased.isEmpty {
                varied.updateValue(HTTPCache.value(of: lowercased, in: request.headerFields), forKey: lowercased)
            }
        }
        entry = CachedEntry(
            key: key, status: response.status.code, reasonPhrase: response.status.reasonPhrase, headerFields: fields,
            requestTime: requestTime, responseTime: Int64(time(nil)), varied: varied, bodyLength: 0, bodyChecksum: 0)
        let declared = response.headerFields[.contentLength].flatMap { Int64($0) }
        if (declared ?? 0) <= Int64(cache.memoryEntryLimit) { memoryCopy = [] }
        if let disk = cache.disk {
            do {
                writer = try disk.makeWriter()
            } catch {
                if memoryCopy == nil { notStored("the cache directory cannot be written: \(error.message)") }
                return
            }
        }
        if writer == nil && memoryCopy == nil { notStored("larger than the memory's maximum entry size") }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> Bool {
        guard !swallowsResponse else { return true }
        guard try inner.write(bytes) else { return false }
        guard entry != nil else { return true }
        length += Int64(bytes.count)
        if length > cache.maximumEntrySize {
            notStored("larger than the maximum entry size, \(cache.maximumEntrySize) bytes")
            return true
        }
        writer?.appendBody(bytes)
        if memoryCopy != nil {
            if length <= Int64(cache.memoryEntryLimit) {
                memoryCopy!.append(contentsOf: bytes)
            } else {
                memoryCopy = nil
            }
        }
        if writer == nil && memoryCopy == nil { notStored("larger than the memory's maximum entry size") }
        return true
    }

    func finish(error: SatchelError?) {
        // A swallowed 304's consumer hears of the stored response, or of the failure, later.
        defer { if !swallowsResponse || error != nil { inner.finish(error: error) } }
        guard var entry else { return }
        guard error == nil else {
            writer?.discard()
            outcome = nil
            return
        }
        entry.headerFields[.contentLength] = String(length)
        let record = cache.varyRecordForStoring(key, varying: varying)
        entry.key = HTTPCache.variantKey(key, record, request: request.headerFields)
        if let memoryCopy {
            entry.bodyLength = length
            entry.bodyChecksum = CacheChecksum.of(memoryCopy)
            cache.remember(entry, body: memoryCopy)
        }
        let stored = writer.map { $0.commit(entry) } ?? true
        outcome =
            stored
            ? .stored : .notStored(reason: "a write to the cache directory failed, or it is larger than its capacity")
    }

    private func notStored(_ reason: String) {
        writer?.discard()
        (entry, writer, memoryCopy) = (nil, nil, nil)
        outcome = .notStored(reason: reason)
    }
}

extension HTTPCache {
    /// Why RFC 9111 §3 (for a private cache) or this cache's limits keep `response` to
    /// `request` out of the cache; `nil` when it may be stored.
    func reasonNotToStore(_ request: HTTPRequest, _ response: HTTPResponse) -> String? {
        let status = response.status.code
        guard request.method == .get else { return "\(request.method.rawValue) responses are not stored" }
        guard status >= 200, status != 206, status != 304 else { return "status \(status) is not stored" }
        let requestControl = CacheControl(request.headerFields)
        let responseControl = CacheControl(response.headerFields)
        if requestControl.noStore || responseControl.noStore { return "no-store" }
        if response.headerFields[values: .vary].contains(where: {
            $0.split(separator: ",").contains { $0.trimmingSpacesAndTabs == "*" }
        }) {
            return "Vary: *"
        }
        if request.headerFields[.authorization] != nil,
            !(responseControl.isPublic || responseControl.mustRevalidate || responseControl.hasSharedMaxAge)
        {
            return "a response to a request with Authorization, without public, must-revalidate or s-maxage"
        }
        let explicit =
            responseControl.maxAge != nil || response.headerFields[.expires] != nil || responseControl.isPublic
            || responseControl.hasSharedMaxAge
        if !explicit && !CachedEntry.heuristicallyCacheable.contains(status) {
            return "status \(status) without explicit freshness"
        }
        if let declared = response.headerFields[.contentLength].flatMap({ Int64($0) }), declared > maximumEntrySize {
            return "larger than the maximum entry size, \(maximumEntrySize) bytes"
        }
        return nil
    }
}
