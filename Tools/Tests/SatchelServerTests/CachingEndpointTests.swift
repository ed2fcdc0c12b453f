// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel
import XCTest

@testable import SatchelServer

/// `/cache/N`, `/cache` and `/etag/E` (httpbin's names): their headers and conditional answers
/// over real HTTP, and Satchel's own RFC 9111 cache against them.
final class CachingEndpointTests: XCTestCase {
    private static func get(
        _ session: Session, _ path: String, _ fields: [String: String] = [:], method: HTTPRequest.Method = .get
    ) async throws -> DataResponse {
        var headers = HTTPFields()
        for (name, value) in fields { headers[HTTPField.Name(name)!] = value }
        return try await session.result(for: SessionRequest(method, path, headers: headers)).get()
    }

    func testCacheForNSecondsSendsMaxAgeWithTheDocument() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let document = try await Self.get(session, "json")
            let cached = try await Self.get(session, "cache/60")
            XCTAssertEqual(cached.response.status.code, 200)
            XCTAssertEqual(cached.response.headerFields[.cacheControl], "public, max-age=60")
            XCTAssertEqual(cached.response.headerFields[.contentType], "application/json")
            XCTAssertEqual(cached.body, document.body)
            XCTAssertEqual(try ServerTestSupport.json(cached)["fixture"]?["name"], "Satchel")
            let now = try await Self.get(session, "cache/0")
            XCTAssertEqual(now.response.headerFields[.cacheControl], "public, max-age=0")
            for bad in ["cache/x", "cache/-1", "cache/31536001", "cache/1.5"] {
                let response = try await Self.get(session, bad)
                XCTAssertEqual(response.response.status.code, 400, bad)
                XCTAssertEqual(response.response.headerFields[.contentType], "application/problem+json", bad)
            }
        }
    }

    func testCacheAnswersIfModifiedSinceWith304() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let lastModified = "Sat, 01 Jan 2000 00:00:00 GMT"
            let document = try await Self.get(session, "json")
            let plain = try await Self.get(session, "cache")
            XCTAssertEqual(plain.response.status.code, 200)
            XCTAssertEqual(plain.response.headerFields[.lastModified], lastModified)
            XCTAssertEqual(plain.response.headerFields[.cacheControl], "no-cache")
            XCTAssertNil(plain.response.headerFields[.eTag])
            XCTAssertEqual(plain.body, document.body)

            for since in [lastModified, "Sun, 02 Jan 2000 00:00:00 GMT", "Tue, 01 Jan 2030 12:00:00 GMT"] {
                let response = try await Self.get(session, "cache", ["If-Modified-Since": since])
                XCTAssertEqual(response.response.status.code, 304, since)
                XCTAssertEqual(response.body, [], since)
                XCTAssertNil(response.response.headerFields[.contentType], since)
                XCTAssertEqual(response.response.headerFields[.lastModified], lastModified, since)
                XCTAssertEqual(response.response.headerFields[.cacheControl], "no-cache", since)
            }
            // Earlier than Last-Modified, not a date, or not IMF-fixdate: the whole document.
            for since in [
                "Fri, 31 Dec 1999 23:59:59 GMT", "yesterday", "Sat, 01 Jan 2000 00:00:00 UTC",
                "Sat, 32 Jan 2000 00:00:00 GMT", "Sat, 01 Jan 2000 24:00:00 GMT",
            ] {
                let response = try await Self.get(session, "cache", ["If-Modified-Since": since])
                XCTAssertEqual(response.response.status.code, 200, since)
                XCTAssertEqual(response.body, plain.body, since)
            }
            // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2); `/cache` has no ETag.
            let tagged = try await Self.get(
                session, "cache", ["If-None-Match": "\"x\"", "If-Modified-Since": lastModified])
            XCTAssertEqual(tagged.response.status.code, 200)
            let any = try await Self.get(session, "cache", ["If-None-Match": "*"])
            XCTAssertEqual(any.response.status.code, 304)
            // Only GET and HEAD are answered 304.
            let post = try await Self.get(session, "cache", ["If-Modified-Since": lastModified], method: .post)
            XCTAssertEqual(post.response.status.code, 200)
        }
    }

    func testEtagAnswersIfNoneMatchWith304AndAFailedIfMatchWith412() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let document = try await Self.get(session, "json")
            let plain = try await Self.get(session, "etag/v1.2")
            XCTAssertEqual(plain.response.status.code, 200)
            XCTAssertEqual(plain.response.headerFields[.eTag], "\"v1.2\"")
            XCTAssertNil(plain.response.headerFields[.cacheControl])
            XCTAssertEqual(plain.body, document.body)

            for field in ["\"v1.2\"", "W/\"v1.2\"", "\"other\", \"v1.2\"", "*"] {
                let response = try await Self.get(session, "etag/v1.2", ["If-None-Match": field])
                XCTAssertEqual(response.response.status.code, 304, field)
                XCTAssertEqual(response.response.headerFields[.eTag], "\"v1.2\"", field)
                XCTAssertEqual(response.body, [], field)
            }
            let other = try await Self.get(session, "etag/v1.2", ["If-None-Match": "\"v1\""])
            XCTAssertEqual(other.response.status.code, 200)
            let head = try await Self.get(session, "etag/v1.2", ["If-None-Match": "\"v1.2\""], method: .head)
            XCTAssertEqual(head.response.status.code, 304)
            // If-None-Match that matches, on a method other than GET and HEAD: 412.
            let put = try await Self.get(session, "etag/v1.2", ["If-None-Match": "\"v1.2\""], method: .put)
            XCTAssertEqual(put.response.status.code, 412)

            // If-Match compares strongly: a weak tag does not match.
            for field in ["\"v1.2\"", "*", "\"a\", \"v1.2\""] {
                let response = try await Self.get(session, "etag/v1.2", ["If-Match": field])
                XCTAssertEqual(response.response.status.code, 200, field)
            }
            for field in ["\"v1\"", "W/\"v1.2\""] {
                let response = try await Self.get(session, "etag/v1.2", ["If-Match": field])
                XCTAssertEqual(response.response.status.code, 412, field)
                XCTAssertEqual(response.response.headerFields[.contentType], "application/problem+json", field)
                XCTAssertEqual(response.response.headerFields[.eTag], "\"v1.2\"", field)
            }

            let tooLong = "etag/" + String(repeating: "a", count: 65)
            for bad in ["etag/a%22b", "etag/a,b", tooLong] {
                let response = try await Self.get(session, bad)
                XCTAssertEqual(response.response.status.code, 400, bad)
            }
            let longest = try await Self.get(session, "etag/" + String(repeating: "a", count: 64))
            XCTAssertEqual(longest.response.status.code, 200)
        }
    }

    /// Satchel's cache: `/cache/60` is stored, then answered from the cache; `/etag/E` and
    /// `/cache` are stored, then revalidated with a 304 that serves the stored body.
    func testSatchelsCacheStoresHitsAndRevalidatesThem() async throws {
        try await ServerTestSupport.withServer { server in
            var configuration = SessionConfiguration()
            configuration.retryPolicy = RetryPolicy.disabled
            configuration.cache = try HTTPCache()
            let session = try Session(baseURL: server.baseURL, configuration: configuration)
            for (path, second) in [("cache/60", CacheOutcome.hit), ("etag/e1", .revalidated), ("cache", .revalidated)] {
                let first = try await session.result(for: SessionRequest(.get, path)).get()
                XCTAssertEqual(first.metrics.cache, .stored, path)
                let again = try await session.result(for: SessionRequest(.get, path)).get()
                XCTAssertNil(again.error, path)
                XCTAssertEqual(again.metrics.cache, second, path)
                XCTAssertEqual(again.response.status.code, 200, path)
                XCTAssertEqual(again.body, first.body, path)
                XCTAssertEqual(try ServerTestSupport.json(again)["fixture"]?["count"], 3, path)
            }
        }
    }

    func testIMFFixdate() {
        XCTAssertEqual(FixtureEndpoints.imfFixdate("Sat, 01 Jan 2000 00:00:00 GMT"), 946_684_800)
        XCTAssertEqual(FixtureEndpoints.imfFixdate("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777)
        for invalid in [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 8:49:37 GMT", "", "Sun, 06 Xyz 1994 08:49:37 GMT",
        ] {
            XCTAssertNil(FixtureEndpoints.imfFixdate(invalid), invalid)
        }
    }
}
