// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Changes a request before each attempt and decides whether a failed attempt is sent again
/// (Alamofire's `RequestAdapter` and `RequestRetrier` in one): adding a token, signing a request,
/// refreshing credentials after a 401.
///
/// Set on the session (``SessionConfiguration/interceptors``) and per request
/// (``SessionRequest/interceptors``, after the session's). Both methods have defaults: a
/// pass-through `adapt` and a `retry` that does not retry.
///
/// ```swift
/// struct Signer: RequestInterceptor {
///     func adapt(_ request: SessionRequest, attempt: Int) async throws -> SessionRequest {
///         var signed = request
///         signed.headers[.authorization] = "Bearer \(await tokens.current())"
///         return signed
///     }
///     func retry(_ request: SessionRequest, after failure: AttemptFailure) async -> RetryDecision {
///         failure.response?.status.code == 401 && failure.retryCount == 0 ? .retry : .doNotRetry
///     }
/// }
/// ```
public protocol RequestInterceptor: Sendable {
    /// The request to send for an attempt, made from the request as the caller gave it (so an
    /// adapter need not undo its change of an earlier attempt). Redirects follow the adapted
    /// request without another call.
    /// - Parameters:
    ///   - request: The caller's request, or the previous interceptor's result.
    ///   - attempt: 0 for the first attempt, then the number of retries so far.
    /// - Throws: Any error fails the request: a ``SatchelError`` as it is, another as
    ///   ``SatchelError/Code/invalidArgument`` with it as the underlying error.
    func adapt(_ request: SessionRequest, attempt: Int) async throws -> SessionRequest

    /// Whether an attempt that failed is sent again. Asked after the session's ``RetryPolicy``
    /// has declined, for a transport error or a status the request's validation refuses, never
    /// for a streamed response already handed to its consumer.
    func retry(_ request: SessionRequest, after failure: AttemptFailure) async -> RetryDecision
}

extension RequestInterceptor {
    /// Sends the request as it is.
    public func adapt(_ request: SessionRequest, attempt: Int) async throws -> SessionRequest {
        request
    }

    /// Does not retry.
    public func retry(_ request: SessionRequest, after failure: AttemptFailure) async -> RetryDecision {
        .doNotRetry
    }
}

/// Why an attempt failed, for ``RequestInterceptor/retry(_:after:)``.
public struct AttemptFailure: Sendable {
    /// The error: a transport failure, or ``SatchelError/Code/unacceptableStatusCode``.
    public var error: SatchelError
    /// The response head, when one arrived.
    public var response: HTTPResponse?
    /// Retries so far (0 after the first attempt).
    public var retryCount: Int

    /// Creates a failure.
    public init(error: SatchelError, response: HTTPResponse?, retryCount: Int) {
        self.error = error
        self.response = response
        self.retryCount = retryCount
    }
}

/// What an interceptor decides about a failed attempt (Alamofire's `RetryResult`).
public enum RetryDecision: Sendable {
    /// Send the request again now (adapted again).
    case retry
    /// Send it again after a wait.
    case retryAfter(Duration)
    /// Do not retry: the next interceptor may; if none does, the attempt's result stands.
    case doNotRetry
    /// Do not retry, and fail the request with this error instead of the attempt's.
    case fail(SatchelError)

    /// Whether this is ``doNotRetry``, which leaves the decision to the next interceptor.
    var declines: Bool {
        if case .doNotRetry = self { return true }
        return false
    }
}

/// Interceptors run as one, in order (Alamofire's `Interceptor`): each `adapt` gets the
/// previous one's request and the first that throws fails the request; `retry` asks each in
/// turn and the first decision other than ``RetryDecision/doNotRetry`` wins.
///
/// ```swift
/// configuration.interceptors = [Interceptor(adapt: { request, _ in
///     var request = request
///     request.headers[.authorization] = "Bearer \(token)"
///     return request
/// })]
/// ```
public struct Interceptor: RequestInterceptor {
    /// The interceptors, in order.
    public var interceptors: [any RequestInterceptor]
    private let adapter: (@Sendable (SessionRequest, Int) async throws -> SessionRequest)?
    private let retrier: (@Sendable (SessionRequest, AttemptFailure) async -> RetryDecision)?

    /// Composes `interceptors`, in order.
    public init(_ interceptors: [any RequestInterceptor]) {
        self.interceptors = interceptors
        adapter = nil
        retrier = nil
    }

    /// An interceptor of two closures (either may be left out).
    public init(
        adapt: (@Sendable (SessionRequest, Int) async throws -> SessionRequest)? = nil,
        retry: (@Sendable (SessionRequest, AttemptFailure) async -> RetryDecision)? = nil
    ) {
        interceptors = []
        adapter = adapt
        retrier = retry
    }

    public func adapt(_ request: SessionRequest, attempt: Int) async throws -> SessionRequest {
        var request = try await adapter?(request, attempt) ?? request
        for interceptor in interceptors {
            request = try await interceptor.adapt(request, attempt: attempt)
        }
        return request
    }

    public func retry(_ request: SessionRequest, after failure: AttemptFailure) async -> RetryDecision {
        if let retrier {
            let decision = await retrier(request, failure)
            if !decision.declines { return decision }
        }
        for interceptor in interceptors {
            let decision = await interceptor.retry(request, after: failure)
            if !decision.declines { return decision }
        }
        return .doNotRetry
    }
}

extension RetryPolicy: RequestInterceptor {
    /// The policy's decision as an interceptor's, by the rules the session applies itself
    /// (idempotent methods, retryable statuses and errors, backoff, `Retry-After`), so it can
    /// take its place in a chain of interceptors.
    public func retry(_ request: SessionRequest, after failure: AttemptFailure) async -> RetryDecision {
        let policy = AttemptPolicy(
            redirect: .none, retry: self, retries: failure.retryCount, method: request.method,
            canResend: request.body.canResend)
        let disposition =
            failure.error.code == .unacceptableStatusCode
            ? failure.response.flatMap(policy.disposition(of:)) : policy.retry(after: failure.error)
        if case .retry(let delay) = disposition { return .retryAfter(delay) }
        return .doNotRetry
    }
}
