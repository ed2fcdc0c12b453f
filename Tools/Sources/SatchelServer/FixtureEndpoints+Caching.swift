import Satchel

// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The endpoints for HTTP caches (RFC 9111), named as httpbin names them: a response that stays
/// fresh, and two that a cache must validate, by date and by entity tag. Each answers with the
/// JSON document of `/json`, so the body never changes.
extension FixtureEndpoints {
    /// The longest `/cache/N`: a year, in seconds.
    static let maxCacheSeconds: Int64 = 31_536_000
    /// `/cache`'s `Last-Modified`: 2000-01-01T00:00:00Z, fixed, as the document never changes.
    static let lastModified = (seconds: Int64(946_684_800), text: "Sat, 01 Jan 2000 00:00:00 GMT")

    /// `/cache/N`: the document with `Cache-Control: public, max-age=N`; a cache answers it
    /// itself for N seconds.
    func cacheFor(_ argument: String) -> FixtureResponse {
        guard let seconds = Self.number(argument, maximum: Self.maxCacheSeconds) else {
            return .problem(
                status: 400, detail: "/cache/N needs N seconds from 0 to \(Self.maxCacheSeconds), not \"\(argument)\"")
        }
        var response = json()
        response.headers.append(.init(name: "Cache-Control", value: "public, max-age=\(seconds)"))
        return response
    }

    /// `/cache`: the document with `Last-Modified` (fixed) and `Cache-Control: no-cache`, so a
    /// cache stores it and validates it on every use; `If-Modified-Since` at or after
    /// `Last-Modified` gives 304 (RFC 9110 §13.1.3).
    func cacheValidatedByDate(_ request: FixtureRequest) -> FixtureResponse {
        let headers: [MultipartPart.Header] = [
            .init(name: "Last-Modified", value: Self.lastModified.text),
            .init(name: "Cache-Control", value: "no-cache"),
        ]
        if let status = Self.preconditionStatus(request, entityTag: nil, lastModified: Self.lastModified.seconds) {
            return Self.preconditionResponse(status, headers: headers)
        }
        var response = json()
        response.headers += headers
        return response
    }

    /// `/etag/E`: the document with `ETag: "E"`; `If-None-Match` naming it (or `*`) gives 304,
    /// `If-Match` not naming it 412 (RFC 9110 §13.1.1, §13.1.2). E is 1 to 64 letters, digits,
    /// `.`, `_`, `~` or `-`.
    func entityTagged(_ argument: String, request: FixtureRequest) -> FixtureResponse {
        guard (1...64).contains(argument.utf8.count), argument.utf8.allSatisfy(Self.isTagCharacter) else {
            return .problem(
                status: 400,
                detail: "/etag/E needs E of 1 to 64 letters, digits, '.', '_', '~' or '-', not \"\(argument)\"")
        }
        let headers: [MultipartPart.Header] = [.init(name: "ETag", value: "\"\(argument)\"")]
        if let status = Self.preconditionStatus(request, entityTag: "\"\(argument)\"", lastModified: nil) {
            return Self.preconditionResponse(status, headers: headers)
        }
        var response = json()
        response.headers += headers
        return response
    }

    /// The status RFC 9110 §13.2.2 gives a request with conditions, for a representation with
    /// `entityTag` (quoted) and `lastModified` (seconds since 1970): 412 when `If-Match` fails;
    /// 304 for GET and HEAD (412 for other methods) when `If-None-Match` matches; when there is
    /// no `If-None-Match`, 304 for GET and HEAD when `If-Modified-Since` is a valid date at or
    /// after `lastModified`; `nil` to answer normally.
    static func preconditionStatus(_ request: FixtureRequest, entityTag: String?, lastModified: Int64?) -> Int? {
        if let ifMatch = request.header("If-Match"), !matches(ifMatch, entityTag: entityTag, weakly: false) {
            return 412
        }
        let isSafe = request.method == "GET" || request.method == "HEAD"
        if let ifNoneMatch = request.header("If-None-Match") {
            return matches(ifNoneMatch, entityTag: entityTag, weakly: true) ? (isSafe ? 304 : 412) : nil
        }
        if isSafe, let lastModified, let since = request.header("If-Modified-Since").flatMap(imfFixdate),
            lastModified <= since
        {
            return 304
        }
        return nil
    }

    /// A 304 with `headers` (what the 200 would have had that describes the representation) and
    /// no body, or a 412 problem.
    static func preconditionResponse(_ status: Int, headers: [MultipartPart.Header]) -> FixtureResponse {
        status == 304
            ? FixtureResponse(status: 304, headers: headers)
            : .problem(status: status, detail: "a precondition (If-Match or If-None-Match) failed", headers: headers)
    }

    /// Whether an `If-Match` or `If-None-Match` field names `entityTag` or is `*` (which any
    /// existing representation matches); weakly: `W/` ignored on both sides (§8.8.3.2).
    static func matches(_ field: String, entityTag: String?, weakly: Bool) -> Bool {
        let candidates = field.split(separator: ",").map { $0.filter { $0 != " " && $0 != "\t" } }
        if candidates.contains("*") { return true }
        guard let entityTag else { return false }
        return candidates.contains { candidate in
            if weakly { return candidate.trimmingWeakPrefix == entityTag.trimmingWeakPrefix }
            return !candidate.hasPrefix("W/") && !entityTag.hasPrefix("W/") && candidate == entityTag
        }
    }

    /// The seconds since 1970 of an IMF-fixdate (`Sat, 01 Jan 2000 00:00:00 GMT`, RFC 9110
    /// §5.6.7, the form this server and HTTP clients send), or `nil` for anything else (an
    /// invalid `If-Modified-Since` is ignored).
    static func imfFixdate(_ text: String) -> Int64? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count == 6, words[0].count == 4, words[0].hasSuffix(","), words[5] == "GMT",
            words[1].count == 2, let day = Int(words[1]), (1...31).contains(day),
            let month = months.firstIndex(of: words[2]),
            words[3].count == 4, let year = Int(words[3]), year >= 1970
        else { return nil }
        let clock = words[4].split(separator: ":").map { Int($0) }
        guard words[4].count == 8, clock.count == 3, let hour = clock[0], let minute = clock[1],
            let second = clock[2], (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int64(timegm(&parts))
    }

    /// Whether `byte` may be in an `/etag/E` argument: a letter, a digit, `.`, `_`, `~` or `-`.
    private static func isTagCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x5F, 0x7E, 0x2D: true
        default: false
        }
    }
}

extension String {
    /// The entity tag without its weakness indicator `W/`.
    fileprivate var trimmingWeakPrefix: Substring {
        hasPrefix("W/") ? dropFirst(2) : Substring(self)
    }
}
