// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Synchronization
import Transport

/// The object behind a `satchel_session *`: a configuration the setters change and the
/// ``Session`` made from it, rebuilt for the first request after a change (transfers in flight
/// keep the old one), so a run of setters costs one session, not one each. The new session runs
/// on the old one's engine, so open connections are kept.
final class SessionHandle: Sendable, CHandle {
    static let parameterName = "session"

    private struct State {
        var configuration: SessionConfiguration
        var session: Session
        /// Whether a setter changed the configuration since `session` was made.
        var isStale = false
        /// Sessions replaced after a change; transfers may still run on them.
        var retired: [Session] = []
        var tasks: [ObjectIdentifier: TaskHandle] = [:]
        /// The proxy settings, as the setters gave them.
        var proxy = ProxySettings()
        /// The bearer authentication, made by the first call that sets a token or a callback.
        var bearer: AuthenticationInterceptor<TokenRefreshAuthenticator>?
    }

    private let baseURL: String?
    private let registry: Registry
    private let state: Mutex<State>

    /// Creates the handle and its first session.
    ///
    /// - Throws: `SATCHEL_E_INVALID_ARGUMENT` for a base URL that is not http(s).
    init(baseURL: String?, registry: Registry) throws(SatchelError) {
        self.baseURL = baseURL
        self.registry = registry
        var configuration = SessionConfiguration()
        configuration.cookieStore = CookieStore()  // kept by the sessions a setter makes anew
        state = Mutex(
            State(
                configuration: configuration,
                session: try Session(baseURL: baseURL, configuration: configuration, registry: registry)))
    }

    /// The session for the next request, made anew when the configuration changed.
    ///
    /// - Throws: `SATCHEL_E_INTERNAL` when libcurl cannot start another session.
    func session() throws(SatchelError) -> Session {
        try state.withLock { state throws(SatchelError) in
            if state.isStale {
                // On the same engine: the connections (and the cookie store) stay.
                let replacement = try Session(
                    baseURL: baseURL, configuration: state.configuration, registry: registry, engineOf: state.session)
                state.retired.append(state.session)
                state.session = replacement
                state.isStale = false
            }
            return state.session
        }
    }

    /// Changes the configuration for later requests.
    func configure(_ change: (inout SessionConfiguration) throws -> Void) throws {
        try state.withLock { state in
            var configuration = state.configuration
            try change(&configuration)  // a setter that fails changes nothing
            state.configuration = configuration
            state.isStale = true
        }
    }

    /// Changes a proxy setting and the policy the settings make; a change that makes a proxy
    /// Satchel refuses changes nothing.
    func configureProxy(_ change: (inout ProxySettings) -> Void) throws {
        try state.withLock { state in
            var settings = state.proxy
            change(&settings)
            state.configuration.proxy = try settings.policy()
            state.proxy = settings
            state.isStale = true
        }
    }

    /// Changes the session's bearer authentication (made on first use) and keeps it among the
    /// configuration's interceptors while it has a token or a refresh callback.
    func bearerAuthentication(
        _ change: (AuthenticationInterceptor<TokenRefreshAuthenticator>, TokenRefreshAuthenticator) throws -> Void
    ) throws {
        try state.withLock { state in
            let interceptor =
                state.bearer
                ?? AuthenticationInterceptor(
                    authenticator: TokenRefreshAuthenticator(), credential: BearerToken(token: ""))
            state.bearer = interceptor
            try change(interceptor, interceptor.authenticator)
            let isActive = interceptor.credential?.token.isEmpty == false || interceptor.authenticator.hasCallback
            state.configuration.interceptors.removeAll { ($0 as AnyObject) === interceptor }
            if isActive { state.configuration.interceptors.append(interceptor) }
            state.isStale = true
        }
    }

    /// The cookie store of the configuration (the sessions made from it share it).
    func cookieStore() -> CookieStore {
        state.withLock { $0.configuration.cookieStore ?? $0.session.cookieStore }
    }

    /// Remembers a task until it ends, so that freeing the session can cancel and wait for it.
    func track(_ task: TaskHandle) {
        state.withLock { $0.tasks[ObjectIdentifier(task)] = task }
    }

    /// Forgets a task that ended.
    func forget(_ task: TaskHandle) {
        _ = state.withLock { $0.tasks.removeValue(forKey: ObjectIdentifier(task)) }
    }

    /// Cancels every task in flight, waits for their completions, then stops the sessions'
    /// transfer threads and waits until libcurl's handles are released.
    func close() {
        let tasks = state.withLock { Array($0.tasks.values) }
        for task in tasks { task.cancel() }
        for task in tasks { task.wait() }
        for session in state.withLock({ [$0.session] + $0.retired }) { session.invalidateAndCancel() }
    }
}
