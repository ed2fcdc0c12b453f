// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// RFC 9111 through a session against the fast server's `/cache-origin`, which counts the
/// requests that reach it: every rule is checked on the origin's counts and on the metrics.
///
/// An entry a test expects to find fresh lives a day (`max-age=86400`), not a minute: a loaded
/// run can hold a test between two of its requests for longer than a minute (CI runs suites
/// beside each other, and with `stress-ng --cpu 2`).
@Suite(.hangGuard)
struct HTTPCacheSessionTests {
    let servers: TestServers
    let cache: HTTPCache
    let session: Session
    let counter: Session

    init() throws {
        servers = try TestServers.shared()
        let cache = try HTTPCache()
        self.cache = cache
        session = try SessionSupport.session(servers.fast) { $0.cache = cache }
        counter = try SessionSupport.session(servers.fast)
    }

    /// A key of its own for each use, so tests do not share the origin's counts.
    private func path(_ query: String) -> (key: String, path: String) {
        let key = UUID().uuidString
        return (key, "cache-origin?key=\(key)" + (query.isEmpty ? "" : "&" + query))
    }

    /// How many requests (and conditional ones, and 304s) reached the origin for `key`.
    private func hits(_ key: String) async throws -> (all: Int64, conditional: Int64, notModified: Int64) {
        let counts = try await counter.get("cache-origin-count", parameters: ["key": .string(key)])
        return (
            counts.value?["hits"]?.int64Value ?? -1, counts.value?["conditional"]?.int64Value ?? -1,
            counts.value?["notModified"]?.int64Value ?? -1
        )
    }

    private func get(
        _ path: String, headers: HTTPFields = [:], policy: CachePolicy = .useProtocol, on session: Session? = nil
    ) async throws -> DataResponse {
        var request = SessionRequest(.get, path, headers: headers)
        request.cachePolicy = policy
        return try await (session ?? self.session).result(for: request).get()
    }

    @Test func aFreshResponseIsServedFromTheCache() async throws {
        let (key, path) = path("cc=max-age=86400&etag=v1")
        let first = try await get(path)
        #expect(first.metrics.cache == .stored)
        let second = try await get(path)
        #expect(second.metrics.cache == .hit)
        #expect(second.error == nil)
        #expect(second.body == first.body)
        #expect(second.value?["hit"]?.int64Value == 1)
        #expect(second.response.headerFields[.age] != nil)
        #expect(second.response.headerFields[.eTag] == "\"v1\"")
        #expect(try await hits(key).all == 1)
    }

    @Test(arguments: [
        ("cc=no-store", "no-store"), ("cc=max-age=60&status=500", nil), ("status=500", "status 500"),
        // private: a private cache may keep it; 404 is cacheable by default (heuristic lifetime).
        ("cc=private,%20max-age=60", nil), ("status=404&last_modified=-1000", nil),
    ])
    func whatMayNotBeStoredIsNot(query: String, reason: String?) async throws {
        let (key, path) = path(query)
        let first = try await get(path)
        if let reason {
            guard case .notStored(let why) = first.metrics.cache else {
                Issue.record("\(String(describing: first.metrics.cache))")
                return
            }
            #expect(why.contains(reason), "\(why)")
            _ = try await get(path)
            #expect(try await hits(key).all == 2)
        } else {
            // Explicit freshness makes any final status storable (§3); see the arguments.
            #expect(first.metrics.cache == .stored)
            #expect(try await get(path).metrics.cache == .hit)
            #expect(try await hits(key).all == 1)
        }
    }

    @Test func aRequestsNoStoreKeepsItsResponseOut() async throws {
        let (key, path) = path("cc=max-age=86400")
        let first = try await get(path, headers: [.cacheControl: "no-store"])
        #expect(first.metrics.cache == .notStored(reason: "no-store"))
        #expect(try await get(path).metrics.cache == .stored)
        #expect(try await hits(key).all == 2)
    }

    /// A stale entry with an ETag is validated: the 304 serves the stored body, with the
    /// 304's fields merged into the stored ones (§3.2, §4.3.4).
    @Test func aStaleEntryIsRevalidatedWithItsETag() async throws {
        let (key, path) = path("cc=max-age=0&etag=v7")
        let first = try await get(path)
        #expect(first.metrics.cache == .stored)
        let second = try await get(path)
        #expect(second.metrics.cache == .revalidated)
        #expect(second.response.status.code == 200)
        #expect(second.body == first.body)
        #expect(second.value?["hit"]?.int64Value == 1)
        let counts = try await hits(key)
        #expect(counts.all == 2 && counts.conditional == 1 && counts.notModified == 1)
    }

    /// §3.2: the 304's fields replace the stored ones — here a new lifetime, so the next request
    /// is a hit without asking the origin.
    @Test func aNotModifiedRefreshesTheStoredFields() async throws {
        let (key, path) = path("cc=max-age=0&etag=u&cc304=max-age=86400")
        _ = try await get(path)
        let revalidated = try await get(path)
        #expect(revalidated.metrics.cache == .revalidated)
        #expect(revalidated.response.headerFields[.cacheControl] == "max-age=86400")
        #expect(try await get(path).metrics.cache == .hit)
        #expect(try await hits(key).all == 2)
    }

    @Test func lastModifiedGivesAHeuristicLifetimeAndValidates() async throws {
        // Modified 1 000 s ago: fresh for 100 s (10 %).
        let (key, path) = path("last_modified=-1000")
        #expect(try await get(path).metrics.cache == .stored)
        #expect(try await get(path).metrics.cache == .hit)
        #expect(try await hits(key).all == 1)
        // Modified 5 s ago: fresh for 0 s; validated with If-Modified-Since.
        let (recent, recentPath) = self.path("last_modified=-5")
        _ = try await get(recentPath)
        #expect(try await get(recentPath).metrics.cache == .revalidated)
        #expect(try await hits(recent).conditional == 1)
    }

    @Test(arguments: [("expires=60", true), ("expires=-60", false), ("expires=bad", false)])
    func expiresDecidesFreshnessWithoutMaxAge(query: String, fresh: Bool) async throws {
        let (key, path) = path(query)
        _ = try await get(path)
        #expect(try await get(path).metrics.cache == (fresh ? .hit : .stored))
        #expect(try await hits(key).all == (fresh ? 1 : 2))
    }

    /// `max-age` wins over `Expires`; an `Age` older than `max-age` makes it stale on arrival (§4.2.3).
    @Test func maxAgeWinsAndTheAgeFieldCounts() async throws {
        let (key, path) = path("cc=max-age=86400&expires=-60")
        _ = try await get(path)
        #expect(try await get(path).metrics.cache == .hit)
        #expect(try await hits(key).all == 1)
        let (old, oldPath) = self.path("cc=max-age=60&age=100")
        _ = try await get(oldPath)
        #expect(try await get(oldPath).metrics.cache == .stored)
        #expect(try await hits(old).all == 2)
    }

    @Test func noCacheAlwaysValidates() async throws {
        let (key, path) = path("cc=no-cache&etag=n")
        _ = try await get(path)
        #expect(try await get(path).metrics.cache == .revalidated)
        #expect(try await get(path).metrics.cache == .revalidated)
        #expect(try await hits(key).notModified == 2)
        // A request's no-cache (and Pragma: no-cache) validates a fresh entry too.
        let (fresh, freshPath) = self.path("cc=max-age=86400&etag=f")
        _ = try await get(freshPath)
        #expect(try await get(freshPath, headers: [.cacheControl: "no-cache"]).metrics.cache == .revalidated)
        #expect(
            try await get(freshPath, headers: [HTTPField.Name("Pragma")!: "no-cache"]).metrics.cache == .revalidated)
        #expect(try await hits(fresh).conditional == 2)
    }

    @Test func theRequestsMaxAgeMinFreshAndMaxStale() async throws {
        let (key, path) = path("cc=max-age=3600&etag=m")
        _ = try await get(path)
        #expect(try await get(path, headers: [.cacheControl: "min-fresh=7200"]).metrics.cache == .revalidated)
        #expect(try await get(path, headers: [.cacheControl: "max-age=0"]).metrics.cache == .revalidated)
        #expect(try await get(path, headers: [.cacheControl: "min-fresh=5"]).metrics.cache == .hit)
        #expect(try await hits(key).conditional == 2)

        let (stale, stalePath) = self.path("cc=max-age=0")
        _ = try await get(stalePath)
        #expect(try await get(stalePath, headers: [.cacheControl: "max-stale=3600"]).metrics.cache == .hit)
        #expect(try await get(stalePath, headers: [.cacheControl: "max-stale"]).metrics.cache == .hit)
        #expect(try await hits(stale).all == 1)
        // must-revalidate: no stale response, whatever the request accepts.
        let (strict, strictPath) = self.path("cc=max-age=0,%20must-revalidate")
        _ = try await get(strictPath)
        #expect(try await get(strictPath, headers: [.cacheControl: "max-stale=60"]).metrics.cache == .stored)
        #expect(try await hits(strict).all == 2)
    }

    @Test func varyMatchesTheRequestFieldsItNames() async throws {
        let (key, path) = path("cc=max-age=86400&vary=X-Variant")
        #expect(try await get(path, headers: [HTTPField.Name("X-Variant")!: "a"]).metrics.cache == .stored)
        let again = try await get(path, headers: [HTTPField.Name("X-Variant")!: "a"])
        #expect(again.metrics.cache == .hit)
        #expect(again.value?["varied"]?.stringValue == "a")
        let other = try await get(path, headers: [HTTPField.Name("X-Variant")!: "b"])
        #expect(other.metrics.cache == .stored)
        #expect(other.value?["varied"]?.stringValue == "b")
        #expect(try await get(path).metrics.cache == .stored)  // absent is a value of its own
        // Each variant is kept apart.
        #expect(try await get(path, headers: [HTTPField.Name("X-Variant")!: "a"]).value?["varied"]?.stringValue == "a")
        #expect(try await get(path, headers: [HTTPField.Name("X-Variant")!: "b"]).metrics.cache == .hit)
        #expect(try await get(path).metrics.cache == .hit)
        #expect(try await hits(key).all == 3)
        // An invalidation reaches every variant.
        _ = try await session.result(for: SessionRequest(.post, path)).get()
        #expect(try await get(path, headers: [HTTPField.Name("X-Variant")!: "a"]).metrics.cache == .stored)
        #expect(try await get(path, headers: [HTTPField.Name("X-Variant")!: "b"]).metrics.cache == .stored)

        let (star, starPath) = self.path("cc=max-age=86400&vary=*")
        #expect(try await get(starPath).metrics.cache == .notStored(reason: "Vary: *"))
        _ = try await get(starPath)
        #expect(try await hits(star).all == 2)
    }

    /// §3.5: a response to a request with Authorization is stored only when it says so.
    @Test func authorizationNeedsPublicMustRevalidateOrSharedMaxAge() async throws {
        let authorized: HTTPFields = [.authorization: "Bearer t"]
        let (_, path) = path("cc=max-age=86400")
        guard case .notStored = try await get(path, headers: authorized).metrics.cache else {
            Issue.record("stored")
            return
        }
        let (key, publicPath) = self.path("cc=max-age=86400,%20public")
        #expect(try await get(publicPath, headers: authorized).metrics.cache == .stored)
        #expect(try await get(publicPath, headers: authorized).metrics.cache == .hit)
        #expect(try await hits(key).all == 1)
    }

    @Test func eachCachePolicy() async throws {
        let (key, path) = path("cc=max-age=0&etag=p")
        let missing = try await get(path, policy: .onlyCache)
        #expect(missing.metrics.cache == .miss)
        #expect(missing.response.status.code == 504)
        #expect(missing.error?.code == .unacceptableStatusCode)
        #expect(missing.error?.message.contains("only-cache") == true)
        #expect(try await hits(key).all == 0)

        #expect(try await get(path, policy: .reload).metrics.cache == .stored)
        #expect(try await get(path, policy: .preferCache).metrics.cache == .hit)  // stale, served anyway
        #expect(try await get(path, policy: .onlyCache).metrics.cache == .hit)
        #expect(try await get(path, headers: [.cacheControl: "only-if-cached"]).metrics.cache == .hit)
        #expect(try await get(path, policy: .reload).metrics.cache == .stored)
        #expect(try await hits(key).all == 2)

        let (fresh, freshPath) = self.path("cc=max-age=86400&etag=r")
        _ = try await get(freshPath)
        #expect(try await get(freshPath, policy: .revalidate).metrics.cache == .revalidated)
        #expect(try await hits(fresh).conditional == 1)
    }

    /// §4.4: a successful unsafe request invalidates the stored response for its URL and for its
    /// Location (same origin).
    @Test func anUnsafeMethodInvalidates() async throws {
        let (key, path) = path("cc=max-age=86400")
        let (other, otherPath) = self.path("cc=max-age=86400")
        _ = try await get(path)
        _ = try await get(otherPath)
        let location = ("/" + otherPath).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try await session.result(for: SessionRequest(.post, path)).get().response.status.code == 200)
        let elsewhere = "cache-origin?key=\(UUID().uuidString)&location=" + location
        #expect(try await session.result(for: SessionRequest(.delete, elsewhere)).get().response.status.code == 200)
        #expect(try await get(path).metrics.cache == .stored)
        #expect(try await get(otherPath).metrics.cache == .stored)
        #expect(try await hits(key).all == 3)
        #expect(try await hits(other).all == 2)
    }

    @Test func aBodyLargerThanTheMaximumEntrySizeIsNotStored() async throws {
        let small = try HTTPCache(maximumEntrySize: 1_000)
        let session = try SessionSupport.session(servers.fast) { $0.cache = small }
        let (key, path) = path("cc=max-age=86400&size=5000")
        let first = try await get(path, on: session)
        #expect(first.body.count >= 5_000)
        guard case .notStored(let reason) = first.metrics.cache else {
            Issue.record("\(String(describing: first.metrics.cache))")
            return
        }
        #expect(reason.contains("maximum entry size"))
        _ = try await get(path, on: session)
        #expect(try await hits(key).all == 2)
        #expect(small.memoryUsage == 0)
    }

    /// httpbin's own endpoints: `/cache/N` (max-age N), `/etag/E` (304 to a matching If-None-Match).
    @Test func httpbinsCacheEndpoints() async throws {
        let bin = try SessionSupport.session(servers.httpbin) { $0.cache = cache }
        #expect(try await bin.result(for: SessionRequest(.get, "cache/60")).get().metrics.cache == .stored)
        #expect(try await bin.result(for: SessionRequest(.get, "cache/60")).get().metrics.cache == .hit)
        let tag = UUID().uuidString
        #expect(try await bin.result(for: SessionRequest(.get, "etag/\(tag)")).get().metrics.cache == .stored)
        let validated = try await bin.result(for: SessionRequest(.get, "etag/\(tag)")).get()
        #expect(validated.metrics.cache == .revalidated)
        #expect(validated.response.status.code == 200)
        let headers = try await bin.result(for: SessionRequest(.get, "response-headers?Cache-Control=no-store")).get()
        #expect(headers.metrics.cache == .notStored(reason: "no-store"))
    }

    @Test func withoutACacheTheMetricsSayNothing() async throws {
        let (_, path) = path("cc=max-age=86400")
        #expect(try await counter.result(for: SessionRequest(.get, path)).get().metrics.cache == nil)
    }
}
