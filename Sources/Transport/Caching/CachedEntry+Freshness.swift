// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension CachedEntry {
    /// Status codes heuristically cacheable (RFC 9110 §15.1): stored without explicit
    /// freshness, and given a heuristic lifetime when they have `Last-Modified`.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    var cacheControl: CacheControl { CacheControl(headerFields) }

    /// How long the response stays fresh, in seconds (RFC 9111 §4.2.1): `max-age`, else
    /// `Expires` − `Date`, else 10 % of `Date` − `Last-Modified` for a heuristically cacheable
    /// status (§4.2.2, as browsers do), else 0. A malformed `Expires` means already expired.
    var freshnessLifetime: Int64 {
        let control = cacheControl
        if let maxAge = control.maxAge { return Int64(maxAge) }
        let date = headerFields[.date].flatMap { HTTPDate.secondsSince1970($0) } ?? responseTime
        if let expires = headerFields[.expires] {
            guard let expiry = HTTPDate.secondsSince1970(expires) else { return 0 }
            return max(0, expiry - date)
        }
        if Self.heuristicallyCacheable.contains(status),
            let modified = headerFields[.lastModified].flatMap({ HTTPDate.secondsSince1970($0) }), modified < date
        {
            return (date - modified) / 10
        }
        return 0
    }

    /// The response's age in seconds at `now` (§4.2.3): the larger of the apparent age and the
    /// `Age` field corrected by the response delay, plus the time since it arrived.
    func currentAge(now: Int64) -> Int64 {
        let date = headerFields[.date].flatMap { HTTPDate.secondsSince1970($0) } ?? responseTime
        let ageValue = headerFields[.age].flatMap { CacheControl.deltaSeconds($0) }.map(Int64.init) ?? 0
        let apparentAge = max(0, responseTime - date)
        let responseDelay = max(0, responseTime - requestTime)
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now - responseTime)
    }

    /// Whether the entry may be served without validation to a request with `request`'s
    /// directives (§4.2, §5.2.1): fresh enough for `max-age` and `min-fresh`, or stale by no
    /// more than `max-stale` allows when the response does not say `must-revalidate`; never for
    /// a request's `max-age=0` (which browsers send to validate);
    /// never when either side says `no-cache`.
    func isServable(for request: CacheControl, now: Int64) -> Bool {
        let response = cacheControl
        guard !request.noCache, !response.noCache else { return false }
        let age = currentAge(now: now)
        let lifetime = freshnessLifetime
        // A request's `max-age=0` validates, as browsers mean it, though an age of 0 s is not more.
        if let maxAge = request.maxAge, age > Int64(maxAge) || maxAge == 0 { return false }
        let needed = age + Int64(request.minFresh ?? 0)
        if needed < lifetime { return true }
        guard let maxStale = request.maxStale, !response.mustRevalidate else { return false }
        let staleness = needed - lifetime
        return maxStale == Int.max || staleness <= Int64(maxStale)
    }

    /// The conditional fields that validate this entry (§4.3.1): `If-None-Match` with its
    /// `ETag`, `If-Modified-Since` with its `Last-Modified`; empty when it has neither.
    var validators: HTTPFields {
        var fields = HTTPFields()
        if let tag = headerFields[.eTag] { fields[.ifNoneMatch] = tag }
        if let modified = headerFields[.lastModified] { fields[.ifModifiedSince] = modified }
        return fields
    }

    /// The entry with the fields of a `304 Not Modified` merged in (§3.2, §4.3.4): each field
    /// the 304 carries replaces the stored ones of that name, except the framing fields, which
    /// describe the stored body; the times are the 304's.
    func updated(by notModified: HTTPResponse, requestTime: Int64, responseTime: Int64) -> CachedEntry {
        let kept: Set<HTTPField.Name> = [.contentLength, .contentEncoding, .transferEncoding, .contentRange]
        var fields = headerFields
        let replaced = Set(notModified.headerFields.map(\.name)).subtracting(kept)
        for name in replaced {
            fields[values: name] = notModified.headerFields[values: name]
        }
        var entry = self
        entry.headerFields = fields
        entry.requestTime = requestTime
        entry.responseTime = responseTime
        return entry
    }
}
