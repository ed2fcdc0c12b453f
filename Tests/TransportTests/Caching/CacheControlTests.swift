// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Testing

@testable import Transport

/// Reading `Cache-Control` leniently, and the freshness arithmetic of RFC 9111 §4.2 on entries
/// made here, with times chosen, so that no clock is involved.
struct CacheControlTests {
    @Test func directivesAreReadInAnyCaseWithQuotesAndAcrossFields() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cacheControl, value: "Max-Age=\"30\", PRIVATE , no-cache=\"Set-Cookie, X\""))
        fields.append(HTTPField(name: .cacheControl, value: "must-revalidate,,unknown=1, max-stale"))
        let control = CacheControl(fields)
        #expect(control.maxAge == 30)
        #expect(control.isPrivate && control.noCache && control.mustRevalidate)
        #expect(control.maxStale == Int.max)
        #expect(!control.noStore && !control.isPublic)
    }

    @Test(arguments: [
        ("max-age=abc", 0), ("max-age=-5", 0), ("max-age=", 0), ("max-age=99999999999999999999", Int(Int32.max)),
        ("max-age=1.5", 0), ("max-age = 7", 7),
    ])
    func aMalformedMaxAgeIsTheStrictestReading(value: String, expected: Int) {
        #expect(CacheControl([.cacheControl: value]).maxAge == expected)
    }

    @Test func hostileValuesDoNotHang() {
        let long = String(repeating: "a,", count: 100_000) + "max-age=5"
        #expect(CacheControl([.cacheControl: long]).maxAge == 5)
        let unclosed = "no-store, x=\"" + String(repeating: "\\\"", count: 10_000)
        #expect(CacheControl([.cacheControl: unclosed]).noStore)
        #expect(CacheControl([CacheControl.pragma: "no-cache"]).noCache)
        #expect(!CacheControl([CacheControl.pragma: "no-cache", .cacheControl: "max-age=1"]).noCache)
    }

    private func entry(
        _ fields: HTTPFields, status: Int = 200, requestTime: Int64 = 1_000, responseTime: Int64 = 1_002
    )
        -> CachedEntry
    {
        CachedEntry(
            key: "GET http://x/", status: status, reasonPhrase: "", headerFields: fields, requestTime: requestTime,
            responseTime: responseTime, varied: [:], bodyLength: 0, bodyChecksum: 0)
    }

    /// 1970-01-01T00:16:40Z and friends, as HTTP dates.
    private func date(_ seconds: Int) -> String {
        let minutes = seconds / 60
        return String(format: "Thu, 01 Jan 1970 %02d:%02d:%02d GMT", minutes / 60, minutes % 60, seconds % 60)
    }

    @Test func freshnessLifetimeFromMaxAgeExpiresOrTheHeuristic() {
        #expect(entry([.cacheControl: "max-age=30", .expires: date(5_000)]).freshnessLifetime == 30)
        #expect(entry([.date: date(1_000), .expires: date(1_600)]).freshnessLifetime == 600)
        #expect(entry([.date: date(1_000), .expires: "0"]).freshnessLifetime == 0)
        #expect(entry([.date: date(2_000), .lastModified: date(1_000)]).freshnessLifetime == 100)
        #expect(entry([.date: date(2_000), .lastModified: date(1_000)], status: 500).freshnessLifetime == 0)
        #expect(entry([:]).freshnessLifetime == 0)
    }

    /// §4.2.3: apparent age, the corrected Age, and the time resident.
    @Test func currentAgeArithmetic() {
        // Date 10 s before the response arrived: apparent age 10.
        #expect(entry([.date: date(992)]).currentAge(now: 1_002) == 10)
        // Age 50 plus the 2 s response delay beats the apparent age.
        #expect(entry([.date: date(1_002), .age: "50"]).currentAge(now: 1_012) == 62)
        // A Date in the future is not a negative age: only the response delay counts.
        #expect(entry([.date: date(2_000)]).currentAge(now: 1_002) == 2)
    }

    @Test func servabilityFollowsTheRequestsDirectives() {
        let fresh = entry([.date: date(1_002), .cacheControl: "max-age=60"])
        #expect(fresh.isServable(for: CacheControl([:]), now: 1_030))
        #expect(!fresh.isServable(for: CacheControl([:]), now: 1_070))
        #expect(!fresh.isServable(for: CacheControl([.cacheControl: "max-age=10"]), now: 1_030))
        #expect(!fresh.isServable(for: CacheControl([.cacheControl: "min-fresh=40"]), now: 1_030))
        #expect(fresh.isServable(for: CacheControl([.cacheControl: "max-stale=20"]), now: 1_070))
        #expect(!fresh.isServable(for: CacheControl([.cacheControl: "max-stale=5"]), now: 1_070))
        let strict = entry([.date: date(1_002), .cacheControl: "max-age=60, must-revalidate"])
        #expect(!strict.isServable(for: CacheControl([.cacheControl: "max-stale"]), now: 1_070))
    }

    @Test func aNotModifiedUpdatesTheStoredFieldsButNotTheFraming() {
        let stored = entry([.eTag: "\"a\"", .contentLength: "10", .cacheControl: "max-age=1", .init("X-Old")!: "1"])
        let notModified = HTTPResponse(
            status: .notModified,
            headerFields: [.cacheControl: "max-age=99", .contentLength: "0", .init("X-New")!: "2"])
        let updated = stored.updated(by: notModified, requestTime: 5_000, responseTime: 5_001)
        #expect(updated.headerFields[.cacheControl] == "max-age=99")
        #expect(updated.headerFields[.contentLength] == "10")
        #expect(updated.headerFields[.init("X-Old")!] == "1")
        #expect(updated.headerFields[.init("X-New")!] == "2")
        #expect(updated.responseTime == 5_001)
        #expect(updated.validators[.ifNoneMatch] == "\"a\"")
    }

    @Test func theEncodedMetadataRoundTripsAndGarbageIsRefused() {
        var stored = entry([.eTag: "\"a\"", .vary: "Accept"])
        stored.varied = ["accept": "text/plain", "x-absent": nil]
        let bytes = stored.encoded
        #expect(CachedEntry(encoded: bytes, bodyLength: 0, bodyChecksum: 0) == stored)
        for cut in [0, 1, 4, bytes.count / 2, bytes.count - 1] {
            #expect(CachedEntry(encoded: Array(bytes.prefix(cut)), bodyLength: 0, bodyChecksum: 0) == nil)
        }
        #expect(CachedEntry(encoded: bytes + [0], bodyLength: 0, bodyChecksum: 0) == nil)
        #expect(CachedEntry(encoded: [0xFF, 0xFF, 0xFF, 0xFF] + bytes, bodyLength: 0, bodyChecksum: 0) == nil)
    }

    @Test func aVaryRecordRoundTripsAndGarbageIsRefused() throws {
        let record = try #require(
            HTTPCache.VaryRecord(varying: [" Accept", "accept-language", "ACCEPT", ""], generation: "g1"))
        #expect(record.names == ["accept", "accept-language"])
        let bytes = record.encoded(primary: "GET http://x/")
        #expect(HTTPCache.VaryRecord(encoded: bytes, primary: "GET http://x/") == record)
        #expect(HTTPCache.VaryRecord(encoded: bytes, primary: "GET http://y/") == nil)  // another URL's
        for garbage in [[], [0xFF, 0xFE], Array("SATCHV01\nGET http://x/\ng1".utf8), Array("nope\n".utf8)] {
            #expect(HTTPCache.VaryRecord(encoded: garbage, primary: "GET http://x/") == nil)
        }
        #expect(HTTPCache.VaryRecord(varying: [" ", ""], generation: "g") == nil)
        // Absent and empty are different variants; the generation is part of the key.
        let absent = HTTPCache.variantKey("GET http://x/", record, request: [:])
        let empty = HTTPCache.variantKey("GET http://x/", record, request: [.accept: ""])
        var later = record
        later.generation = "g2"
        #expect(absent != empty)
        #expect(HTTPCache.variantKey("GET http://x/", later, request: [:]) != absent)
        #expect(HTTPCache.variantKey("GET http://x/", nil, request: [.accept: "a"]) == "GET http://x/")
    }

    @Test func theChecksumDoesNotDependOnHowTheBytesAreSplit() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var split = CacheChecksum()
        for chunk in stride(from: 0, to: bytes.count, by: 13) {
            bytes[chunk..<min(chunk + 13, bytes.count)].withUnsafeBytes { split.update($0) }
        }
        #expect(split.value == CacheChecksum.of(bytes))
        var flipped = bytes
        flipped[500] ^= 1
        #expect(CacheChecksum.of(flipped) != CacheChecksum.of(bytes))
        #expect(CacheChecksum.of(Array(bytes.dropLast())) != CacheChecksum.of(bytes))
    }
}
