// SPDX-License-Identifier: Apache-2.0
/// Where a response came from, in ``TransferMetrics/cache`` (and so for event monitors).
public enum CacheOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Served from the cache without asking the origin.
    case hit
    /// Not in the cache and not fetched (``CachePolicy/onlyCache``: a `504` was synthesized).
    case miss
    /// The origin answered a conditional request with `304`; the stored body was served and its
    /// stored header fields updated.
    case revalidated
    /// Fetched from the origin and stored.
    case stored
    /// Fetched from the origin and not stored, for `reason` (such as `"no-store"`).
    case notStored(reason: String)

    /// `hit`, `miss`, `revalidated`, `stored` or `not-stored (reason)`, as `satchel request -v` prints it.
    public var description: String {
        switch self {
        case .hit: "hit"
        case .miss: "miss"
        case .revalidated: "revalidated"
        case .stored: "stored"
        case .notStored(let reason): "not-stored (\(reason))"
        }
    }
}
