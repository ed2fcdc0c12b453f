// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// When a failed request is sent again (Alamofire's `RetryPolicy`, same defaults).
///
/// A request is retried when its method is idempotent (``retryableMethods``) and it failed
/// with a retryable status code or transport error, up to ``retryLimit`` times, waiting
/// `exponentialBackoffBase ^ attempt × exponentialBackoffScale` seconds (0.5 s, then 1 s) — or,
/// when the response says `Retry-After`, that long (up to ``maximumRetryAfter``; longer waits
/// are not retried). Bodies that cannot rewind are never resent.
public struct RetryPolicy: Sendable, Hashable {
    /// The most retries after the first attempt (Alamofire: 2).
    public var retryLimit = 2
    /// The base of the exponential backoff (Alamofire: 2).
    public var exponentialBackoffBase = 2
    /// Seconds the backoff is multiplied by (Alamofire: 0.5).
    public var exponentialBackoffScale = 0.5
    /// Methods safe to send again (Alamofire: DELETE, GET, HEAD, OPTIONS, PUT, TRACE).
    public var retryableMethods: Set<HTTPRequest.Method> = [.delete, .get, .head, .options, .put, .trace]
    /// Status codes worth another try (Alamofire: 408, 500, 502, 503, 504).
    public var retryableStatusCodes: Set<Int> = [408, 500, 502, 503, 504]
    /// Transport failures worth another try.
    public var retryableErrorCodes: Set<SatchelError.Code> = [.timedOut, .cannotConnect, .networkFailure]
    /// Whether a `Retry-After` header (seconds or an HTTP date) sets the wait.
    public var honoursRetryAfter = true
    /// The longest `Retry-After` waited for; a longer one ends the request with its response.
    public var maximumRetryAfter: Duration = .seconds(60)

    /// Alamofire's defaults (the same as ``alamofire``).
    public init() {}

    /// Alamofire's `RetryPolicy`: up to 2 retries of idempotent requests after a transient
    /// failure or a 408, 500, 502, 503 or 504, with exponential backoff from 0.5 s.
    ///
    /// ```swift
    /// var configuration = SessionConfiguration()
    /// configuration.retryPolicy = .alamofire
    /// ```
    public static var alamofire: RetryPolicy { RetryPolicy() }

    /// Never retries.
    public static var disabled: RetryPolicy {
        var policy = RetryPolicy()
        policy.retryLimit = 0
        return policy
    }

    /// The backoff before retry number `retry` (0 for the first retry).
    public func backoff(beforeRetry retry: Int) -> Duration {
        var factor = 1.0
        for _ in 0..<max(retry, 0) { factor *= Double(exponentialBackoffBase) }
        return .milliseconds(Int((factor * exponentialBackoffScale * 1000).rounded()))
    }
}
