// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decides, from one attempt's result, whether a request is done, redirected or retried.
struct AttemptPolicy: Sendable {
    let redirect: RedirectPolicy
    let retry: RetryPolicy
    let retries: Int
    let method: HTTPRequest.Method
    let canResend: Bool

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// `nil` when `response` is the final one; otherwise the redirect or the retry.
    func disposition(of response: HTTPResponse) -> Session.Disposition? {
        let status = response.status.code
        if redirect.follows, Self.redirectStatuses.contains(status), let location = response.headerFields[.location],
            !location.isEmpty
        {
            return .redirect(to: location)
        }
        guard retries < retry.retryLimit, retry.retryableStatusCodes.contains(status), isRetryableRequest else {
            return nil
        }
        let delay =
            retry.honoursRetryAfter
            ? Self.retryAfter(response) ?? retry.backoff(beforeRetry: retries) : retry.backoff(beforeRetry: retries)
        return delay <= retry.maximumRetryAfter ? .retry(after: delay) : nil
    }

    /// The retry for a failed attempt, when the error is worth one.
    func retry(after error: SatchelError) -> Session.Disposition? {
        guard retries < retry.retryLimit, retry.retryableErrorCodes.contains(error.code), isRetryableRequest else {
            return nil
        }
        return .retry(after: retry.backoff(beforeRetry: retries))
    }

    private var isRetryableRequest: Bool { retry.retryableMethods.contains(method) && canResend }

    /// `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3).
    static func retryAfter(_ response: HTTPResponse) -> Duration? {
        guard let value = response.headerFields[.retryAfter]?.trimmingSpacesAndTabs else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = HTTPDate.secondsSince1970(String(value)) else { return nil }
        return .milliseconds(Int(max(0, (Double(date) - Date().timeIntervalSince1970) * 1000)))
    }
}
