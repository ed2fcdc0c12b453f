// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// The `Cache-Control` directives of a request or response (RFC 9111 §5.2) that a private
/// cache acts on, read leniently: directive names in any case, values quoted or not, unknown
/// directives and repeated fields ignored, a malformed number taken as the strictest reading
/// (§4.2.1: an invalid `max-age` makes the response stale; §5.2.1.2: a `max-stale` without a
/// value accepts any staleness).
struct CacheControl: Hashable, Sendable {
    /// `max-age=N` in seconds; `0` when the value is malformed.
    var maxAge: Int?
    /// `max-stale[=N]`: `Int.max` when present without a (valid) value.
    var maxStale: Int?
    /// `min-fresh=N` in seconds.
    var minFresh: Int?
    var noCache = false
    var noStore = false
    var onlyIfCached = false
    var mustRevalidate = false
    var isPublic = false
    var isPrivate = false
    /// `s-maxage` is present: a shared cache's lifetime, which a private cache ignores except
    /// for §3.5 (it lets a response to a request with `Authorization` be stored).
    var hasSharedMaxAge = false

    /// `Pragma` (RFC 9111 §5.4, deprecated), which swift-http-types does not name.
    static let pragma = HTTPField.Name("Pragma")!

    /// The directives of every `Cache-Control` field in `fields`; a request's `Pragma: no-cache`
    /// counts as `no-cache` when there is no `Cache-Control` (§5.4).
    init(_ fields: HTTPFields) {
        let values = fields[values: .cacheControl]
        if values.isEmpty, fields[values: Self.pragma].contains(where: { $0.lowercased().contains("no-cache") }) {
            noCache = true
        }
        for value in values {
            for directive in Self.directives(in: value) { apply(directive.name, directive.argument) }
        }
    }

    private mutating func apply(_ name: String, _ argument: String?) {
        let seconds = argument.flatMap(Self.deltaSeconds)
        switch name {
        case "max-age": maxAge = seconds ?? 0
        case "max-stale": maxStale = seconds ?? Int.max
        case "min-fresh": minFresh = seconds ?? 0
        case "no-cache": noCache = true
        case "no-store": noStore = true
        case "only-if-cached": onlyIfCached = true
        case "must-revalidate", "proxy-revalidate": mustRevalidate = true
        case "public": isPublic = true
        case "private": isPrivate = true
        case "s-maxage": hasSharedMaxAge = true
        default: break
        }
    }

    /// `delta-seconds` (§1.2.2): digits only; a value too large for `Int` saturates, as the RFC
    /// asks (2^31 is "infinity" enough).
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text) ?? Int(Int32.max)
    }

    /// The `name[=argument]` items of one field value, names lowercased, quotes removed.
    static func directives(in value: String) -> [(name: String, argument: String?)] {
        var result: [(String, String?)] = []
        var rest = Substring(value)
        while !rest.isEmpty {
            var item = Substring()
            var inQuotes = false
            var escaped = false
            var end = rest.endIndex
            for index in rest.indices {
                let character = rest[index]
                if escaped {
                    escaped = false
                } else if character == "\\" && inQuotes {
                    escaped = true
                } else if character == "\"" {
                    inQuotes.toggle()
                } else if character == "," && !inQuotes {
                    end = index
                    break
                }
            }
            item = rest[..<end]
            rest = end == rest.endIndex ? Substring() : rest[rest.index(after: end)...]
            let trimmed = item.trimmingSpacesAndTabs
            guard !trimmed.isEmpty else { continue }
            if let equals = trimmed.firstIndex(of: "=") {
                let name = trimmed[..<equals].trimmingSpacesAndTabs.lowercased()
                var argument = trimmed[trimmed.index(after: equals)...].trimmingSpacesAndTabs
                if argument.count >= 2, argument.first == "\"", argument.last == "\"" {
                    argument = argument.dropFirst().dropLast()
                }
                result.append((name, String(argument)))
            } else {
                result.append((trimmed.lowercased(), nil))
            }
        }
        return result
    }
}
