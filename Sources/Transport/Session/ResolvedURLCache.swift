// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Synchronization

/// The URL a session resolved last: a client that sends the same URL again and again (polling,
/// a paginated API's fixed path) skips libcurl's URL parser, which is about a twentieth of a small
/// request's cost.
///
/// Resolution is a pure function of the reference and the base, so a hit returns exactly what
/// ``ResolvedURL/init(_:relativeTo:)`` would; failures are not kept.
final class ResolvedURLCache: Sendable {
    private struct Entry {
        let reference: String
        let base: String?
        let url: ResolvedURL
    }

    private let last = Mutex<Entry?>(nil)

    /// `reference` resolved against `base`.
    /// - Throws: see ``ResolvedURL/init(_:relativeTo:)``.
    func resolve(_ reference: String, relativeTo base: String?) throws(SatchelError) -> ResolvedURL {
        let cached = last.withLock { last -> ResolvedURL? in
            guard let last, last.reference == reference, last.base == base else { return nil }
            return last.url
        }
        if let cached { return cached }
        let url = try ResolvedURL(reference, relativeTo: base)
        last.withLock { $0 = Entry(reference: reference, base: base, url: url) }
        return url
    }
}
