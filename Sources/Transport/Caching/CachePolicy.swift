// SPDX-License-Identifier: Apache-2.0
/// How a request uses the session's ``HTTPCache``: AFNetworking's `NSURLRequestCachePolicy`,
/// and the values of `satchel request --cache-policy`.
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// RFC 9111 (the default; `NSURLRequestUseProtocolCachePolicy`): a fresh stored response is
    /// served, a stale one is validated, what may be stored is stored.
    case useProtocol = "protocol"
    /// The network, ignoring what is stored; the response is stored
    /// (`NSURLRequestReloadIgnoringLocalCacheData`).
    case reload
    /// A stored response, fresh or stale, when there is one, else the network
    /// (`NSURLRequestReturnCacheDataElseLoad`).
    case preferCache = "prefer-cache"
    /// A stored response, fresh or stale, never the network: without one the request fails with
    /// a synthesized `504 Gateway Timeout` (RFC 9111 §5.2.1.7, `only-if-cached`;
    /// `NSURLRequestReturnCacheDataDontLoad`).
    case onlyCache = "only-cache"
    /// A stored response only after the origin confirmed it (a conditional request answered
    /// `304`), however fresh (`NSURLRequestReloadRevalidatingCacheData`).
    case revalidate
}
