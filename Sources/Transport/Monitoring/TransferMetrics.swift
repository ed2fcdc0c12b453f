// SPDX-License-Identifier: Apache-2.0
/// What one request cost: libcurl's timings of the last attempt, sizes, and how many redirects
/// and retries it took.
public struct TransferMetrics: Sendable, Hashable {
    /// Time to resolve the host name.
    public var nameLookup: Duration = .zero
    /// Time until the TCP connection was up.
    public var connect: Duration = .zero
    /// Time until the TLS handshake was done (zero for plain HTTP).
    public var tlsHandshake: Duration = .zero
    /// Time until the first response byte.
    public var firstByte: Duration = .zero
    /// Time of the last attempt, start to end.
    public var total: Duration = .zero
    /// Time of the whole request, all redirects, retries and backoff included.
    public var elapsed: Duration = .zero
    /// Request bytes sent by the last attempt (body and head).
    public var bytesSent: Int64 = 0
    /// Response body bytes received by the last attempt (after decompression).
    public var bytesReceived: Int64 = 0
    /// The HTTP version used, such as `"1.1"` or `"2"`.
    public var httpVersion = ""
    /// Whether the last attempt reused a connection instead of opening one.
    public var reusedConnection = false
    /// Redirects followed.
    public var redirectCount = 0
    /// Retries made.
    public var retryCount = 0
    /// Where the response came from when the session has an ``HTTPCache``: `nil` without one,
    /// or when the cache took no part (a method other than `GET`, a request with conditional or
    /// `Range` fields of its own, a failed transfer).
    public var cache: CacheOutcome?

    /// Empty metrics.
    public init() {}
}
