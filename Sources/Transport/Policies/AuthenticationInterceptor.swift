// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Synchronization

/// A credential that can expire, such as an OAuth access token (Alamofire's
/// `AuthenticationCredential`).
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before it is used (expired, or about to).
    var requiresRefresh: Bool { get }
}

/// Puts a credential on requests and refreshes it (Alamofire's `Authenticator`).
public protocol Authenticator: Sendable {
    /// The credential the authenticator applies and refreshes, such as an OAuth access token.
    associatedtype Credential: AuthenticationCredential

    /// Adds `credential` to `request`, such as `Authorization: Bearer …`.
    func apply(_ credential: Credential, to request: inout SessionRequest)

    /// A fresh credential for an expired or refused one: a call to the token endpoint.
    /// - Throws: Why the refresh failed; every request waiting for it fails with that error.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether `response` refused the request's credential. The default: status 401.
    func didRequest(
        _ request: SessionRequest, with response: HTTPResponse, failDueToAuthenticationError error: SatchelError
    )
        -> Bool

    /// Whether `request` was sent with `credential` (rather than with an older one).
    func isRequest(_ request: SessionRequest, authenticatedWith credential: Credential) -> Bool
}

extension Authenticator {
    /// Status 401.
    public func didRequest(
        _ request: SessionRequest, with response: HTTPResponse, failDueToAuthenticationError error: SatchelError
    ) -> Bool {
        response.status.code == 401
    }
}

/// An interceptor that authenticates every request and refreshes the credential when it has
/// expired or a response refuses it — **once** for any number of requests at the same time: the
/// first request that needs a refresh starts it, the others wait for it, then all are sent again
/// with the new credential; when the refresh fails, all of them fail with its error (Alamofire's
/// `AuthenticationInterceptor`).
///
/// At most one refresh runs per credential: a request refused with an older credential is sent
/// again with the current one without a refresh, and a refresh that failed is not tried again
/// for the same credential (setting ``credential`` starts over). More than
/// ``RefreshWindow/maximumAttempts`` refreshes within ``RefreshWindow/interval`` fail with
/// ``SatchelError/Code/limitExceeded`` (`refreshWindow`), so a server that refuses every new
/// token cannot loop, and one request is retried at most `maximumAttempts` + 1 times. A request whose task is cancelled stops waiting for a refresh at once
/// (the refresh goes on for the others).
///
/// ```swift
/// let auth = AuthenticationInterceptor(authenticator: OAuth(tokens: tokenService), credential: saved)
/// var configuration = SessionConfiguration()
/// configuration.interceptors = [auth]
/// ```
public final class AuthenticationInterceptor<A: Authenticator>: RequestInterceptor {
    /// How many refreshes may happen within how long.
    public struct RefreshWindow: Sendable {
        /// The window.
        public var interval: Duration
        /// The most refreshes within it.
        public var maximumAttempts: Int

        /// Alamofire's: 5 refreshes within 30 seconds.
        public init(interval: Duration = .seconds(30), maximumAttempts: Int = 5) {
            self.interval = interval
            self.maximumAttempts = maximumAttempts
        }
    }

    /// What a request does about a refresh it needs.
    private enum Step {
        case done, wait, fail(SatchelError), start(A.Credential)
    }

    private struct State {
        var credential: A.Credential?
        /// Counts the credentials: a refresh replaces the one of its generation only.
        var generation = 0
        var isRefreshing = false
        /// Requests waiting for the refresh in progress, by a key of their own.
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiter = 0
        /// The refresh of this generation failed with this error.
        var failure: (generation: Int, error: SatchelError)?
        var refreshes: [ContinuousClock.Instant] = []
    }

    /// The authenticator.
    public let authenticator: A
    /// The refresh limit; `nil` for none.
    public let refreshWindow: RefreshWindow?
    private let state: Mutex<State>

    /// Creates the interceptor.
    /// - Parameters:
    ///   - authenticator: Applies and refreshes the credential.
    ///   - credential: The credential to start with; without one, requests fail until
    ///     ``credential`` is set.
    ///   - refreshWindow: The refresh limit (5 within 30 s); `nil` for none.
    public init(authenticator: A, credential: A.Credential? = nil, refreshWindow: RefreshWindow? = RefreshWindow()) {
        self.authenticator = authenticator
        self.refreshWindow = refreshWindow
        state = Mutex(State(credential: credential))
    }

    /// The current credential; setting one replaces it (and forgets a failed refresh).
    public var credential: A.Credential? {
        get { state.withLock { $0.credential } }
        set {
            state.withLock { state in
                state.credential = newValue
                state.generation += 1
                state.failure = nil
            }
        }
    }

    public func adapt(_ request: SessionRequest, attempt: Int) async throws -> SessionRequest {
        var (credential, generation) = try current()
        if credential.requiresRefresh {
            try await refresh(generation)
            (credential, generation) = try current()
        }
        var request = request
        authenticator.apply(credential, to: &request)
        return request
    }

    public func retry(_ request: SessionRequest, after failure: AttemptFailure) async -> RetryDecision {
        guard let response = failure.response,
            authenticator.didRequest(request, with: response, failDueToAuthenticationError: failure.error)
        else { return .doNotRetry }
        // A request refused again and again (an authenticator whose `apply` and `isRequest`
        // disagree would retry it forever without a refresh) is given up.
        guard failure.retryCount <= (refreshWindow?.maximumAttempts ?? 5) else { return .doNotRetry }
        do {
            let (credential, generation) = try current()
            // Refused with an older credential: the current one may do.
            guard authenticator.isRequest(request, authenticatedWith: credential) else { return .retry }
            try await refresh(generation)
            return .retry
        } catch {
            return .fail(SatchelError.wrap(error))
        }
    }

    /// The credential and its generation.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when there is none.
    private func current() throws(SatchelError) -> (A.Credential, Int) {
        let (credential, generation) = state.withLock { ($0.credential, $0.generation) }
        guard let credential else {
            throw SatchelError(.invalidArgument, "the authentication interceptor has no credential to send")
        }
        return (credential, generation)
    }

    /// Replaces the credential of `generation` by a refreshed one — starting the refresh, or
    /// waiting for the one in progress — unless it was replaced already.
    /// - Throws: The refresh's error; ``SatchelError/Code/cancelled`` when the task is cancelled
    ///   while it waits.
    private func refresh(_ generation: Int) async throws {
        let key = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let step = state.withLock { state -> Step in
                    if state.generation != generation { return .done }
                    if let failure = state.failure, failure.generation == generation { return .fail(failure.error) }
                    if Task.isCancelled {
                        return .fail(SatchelError(.cancelled, "cancelled before the credential refresh"))
                    }
                    if state.isRefreshing {
                        state.waiters[key] = continuation
                        return .wait
                    }
                    guard let credential = state.credential else {
                        return .fail(SatchelError(.invalidArgument, "the authentication interceptor has no credential"))
                    }
                    if let excess = excessiveRefresh(&state) {
                        state.failure = (generation, excess)
                        return .fail(excess)
                    }
                    state.waiters[key] = continuation
                    state.isRefreshing = true
                    return .start(credential)
                }
                switch step {
                case .done: continuation.resume()
                case .wait: break
                case .fail(let error): continuation.resume(throwing: error)
                case .start(let credential): Task { await self.runRefresh(of: credential, generation: generation) }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.resume(throwing: SatchelError(.cancelled, "cancelled while waiting for the credential refresh"))
        }
    }

    /// Refreshes `credential` and wakes every waiting request with the outcome.
    private func runRefresh(of credential: A.Credential, generation: Int) async {
        let outcome: Result<A.Credential, SatchelError>
        do {
            outcome = .success(try await authenticator.refresh(credential))
        } catch let error as SatchelError {
            outcome = .failure(error)
        } catch {
            outcome = .failure(
                SatchelError(.invalidArgument, "the credential refresh failed: \(error)", underlying: error))
        }
        let waiters = state.withLock { state in
            state.isRefreshing = false
            switch outcome {
            case .success(let fresh):
                if state.generation == generation {
                    state.credential = fresh
                    state.generation += 1
                }
            case .failure(let error):
                state.failure = (generation, error)
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            switch outcome {
            case .success: waiter.resume()
            case .failure(let error): waiter.resume(throwing: error)
            }
        }
    }

    /// The error when one more refresh would pass the window's limit; else records it.
    private func excessiveRefresh(_ state: inout State) -> SatchelError? {
        let now = ContinuousClock.now
        guard let refreshWindow else { return nil }
        state.refreshes.removeAll { now - $0 > refreshWindow.interval }
        guard state.refreshes.count < refreshWindow.maximumAttempts else {
            return SatchelError(
                .limitExceeded,
                "more than \(refreshWindow.maximumAttempts) credential refreshes within \(refreshWindow.interval)",
                limit: "refreshWindow")
        }
        state.refreshes.append(now)
        return nil
    }
}
