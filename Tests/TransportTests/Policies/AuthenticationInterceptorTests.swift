// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// `AuthenticationInterceptor` against the fast test server: `/protected?key=K` accepts only
/// K's current token, `/token?key=K` issues the next one and counts them.
@Suite(.hangGuard)
struct AuthenticationInterceptorTests {
    struct Token: AuthenticationCredential {
        var value: String
        var expired = false
        var requiresRefresh: Bool { expired }
    }

    /// Refreshes through the test server's token endpoint, counting its calls.
    final class TokenService: Authenticator {
        let key: String
        let session: Session
        let fails: Bool
        let refreshes = Mutex(0)

        init(key: String, session: Session, fails: Bool = false) {
            self.key = key
            self.session = session
            self.fails = fails
        }

        func apply(_ credential: Token, to request: inout SessionRequest) {
            request.headers[.authorization] = "Bearer \(credential.value)"
        }

        func refresh(_ credential: Token) async throws -> Token {
            refreshes.withLock { $0 += 1 }
            let answer = try await session.get("token?key=\(key)\(fails ? "&fail=1" : "")")
            return Token(value: answer.value?["token"]?.stringValue ?? "")
        }

        func isRequest(_ request: SessionRequest, authenticatedWith credential: Token) -> Bool {
            request.headers[.authorization] == "Bearer \(credential.value)"
        }
    }

    let servers: TestServers
    let plain: Session

    init() throws {
        servers = try TestServers.shared()
        plain = try SessionSupport.session(servers.fast)
    }

    func session(_ interceptor: some RequestInterceptor) throws -> Session {
        try SessionSupport.session(servers.fast) { $0.interceptors = [interceptor] }
    }

    /// 64 requests refused at once with a stale token: exactly one refresh, all then succeed
    /// with the new token.
    @Test func sixtyFourRefusedRequestsShareOneRefresh() async throws {
        let key = UUID().uuidString
        let service = TokenService(key: key, session: plain)
        let auth = AuthenticationInterceptor(authenticator: service, credential: Token(value: "stale"))
        let session = try session(auth)
        let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<64 {
                group.addTask { try await session.get("protected?key=\(key)").value?["token"]?.stringValue }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(tokens.count == 64)
        #expect(Set(tokens) == ["tok-\(key)-1"])
        #expect(service.refreshes.withLock { $0 } == 1)
        #expect(auth.credential?.value == "tok-\(key)-1")
        // Later requests use the new token without another refresh.
        _ = try await session.get("protected?key=\(key)")
        #expect(service.refreshes.withLock { $0 } == 1)
    }

    @Test func anExpiredCredentialIsRefreshedBeforeTheRequest() async throws {
        let key = UUID().uuidString
        let service = TokenService(key: key, session: plain)
        let auth = AuthenticationInterceptor(authenticator: service, credential: Token(value: "old", expired: true))
        let response = try await session(auth).get("protected?key=\(key)")
        #expect(response.response.status.code == 200)
        #expect(response.metrics.retryCount == 0)  // refreshed before sending: no 401 first
        #expect(service.refreshes.withLock { $0 } == 1)
    }

    /// A refresh that fails fails every request waiting for it, with its error, and is not tried
    /// again for the same credential.
    @Test func aFailedRefreshFailsEveryWaitingRequest() async throws {
        let key = UUID().uuidString
        let service = TokenService(key: key, session: plain, fails: true)
        let auth = AuthenticationInterceptor(authenticator: service, credential: Token(value: "stale"))
        let session = try session(auth)
        let codes = await withTaskGroup(of: SatchelError.Code?.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    await session.result(for: SessionRequest(.get, "protected?key=\(key)")).failure?.code
                }
            }
            return await group.reduce(into: [SatchelError.Code?]()) { $0.append($1) }
        }
        #expect(codes == Array(repeating: .unacceptableStatusCode, count: 16))  // the token endpoint's 503
        #expect(service.refreshes.withLock { $0 } == 1)
        // A new credential starts over.
        auth.credential = Token(value: "another stale one")
        _ = try await session.result(for: SessionRequest(.get, "protected?key=\(key)")).get()
        #expect(service.refreshes.withLock { $0 } == 2)
    }

    /// A server that refuses every token: the refresh window stops the loop.
    @Test func theRefreshWindowStopsAServerThatRefusesEveryToken() async throws {
        final class Useless: Authenticator {
            let refreshes = Mutex(0)
            func apply(_ credential: Token, to request: inout SessionRequest) {
                request.headers[.authorization] = "Bearer \(credential.value)"
            }
            func refresh(_ credential: Token) async throws -> Token {
                refreshes.withLock { $0 += 1 }
                return Token(value: credential.value + "+")
            }
            func isRequest(_ request: SessionRequest, authenticatedWith credential: Token) -> Bool {
                request.headers[.authorization] == "Bearer \(credential.value)"
            }
        }
        let useless = Useless()
        let auth = AuthenticationInterceptor(
            authenticator: useless, credential: Token(value: "t"),
            refreshWindow: .init(interval: .seconds(60), maximumAttempts: 3))
        let response = try await (try session(auth)).result(
            for: SessionRequest(.get, "protected?key=\(UUID().uuidString)")
        ).get()
        #expect(response.failure?.code == .limitExceeded)
        #expect(response.failure?.limit == "refreshWindow")
        #expect(response.response.status.code == 401)  // the last response is kept
        #expect(String(decoding: response.body, as: UTF8.self).contains("a fresh token is needed"))
        #expect(useless.refreshes.withLock { $0 } == 3)
    }

    /// An authenticator whose `isRequest` never recognises its own requests would retry them
    /// forever without a refresh: the request is given up after the window's attempts.
    @Test func aRequestIsNotRetriedForever() async throws {
        final class Confused: Authenticator {
            func apply(_ credential: Token, to request: inout SessionRequest) {}
            func refresh(_ credential: Token) async throws -> Token { credential }
            func isRequest(_ request: SessionRequest, authenticatedWith credential: Token) -> Bool { false }
        }
        let auth = AuthenticationInterceptor(
            authenticator: Confused(), credential: Token(value: "t"),
            refreshWindow: .init(interval: .seconds(60), maximumAttempts: 2))
        let response = try await (try session(auth)).result(
            for: SessionRequest(.get, "protected?key=\(UUID().uuidString)")
        ).get()
        #expect(response.failure?.code == .unacceptableStatusCode)
        #expect(response.response.status.code == 401)
        #expect(response.metrics.retryCount == 3)
    }

    @Test func withoutACredentialTheRequestFails() async throws {
        let auth = AuthenticationInterceptor(authenticator: TokenService(key: "k", session: plain), credential: nil)
        let response = await (try session(auth)).result(for: SessionRequest(.get, "protected?key=k"))
        #expect(response.failure?.code == .invalidArgument)
        #expect(response.failure?.message.contains("no credential") == true)
        #expect(response.response == nil)
    }

    /// A request whose task is cancelled stops waiting for a refresh that hangs.
    @Test func cancellationEndsTheWaitForAHangingRefresh() async throws {
        final class Hanging: Authenticator {
            let started = Mutex(false)
            func apply(_ credential: Token, to request: inout SessionRequest) {
                request.headers[.authorization] = "Bearer \(credential.value)"
            }
            func refresh(_ credential: Token) async throws -> Token {
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(3600))
                return credential
            }
            func isRequest(_ request: SessionRequest, authenticatedWith credential: Token) -> Bool { true }
        }
        let hanging = Hanging()
        let session = try session(AuthenticationInterceptor(authenticator: hanging, credential: Token(value: "t")))
        let task = Task { await session.result(for: SessionRequest(.get, "protected?key=\(UUID().uuidString)")) }
        while !hanging.started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        #expect(await task.value.failure?.code == .cancelled)
    }

    /// The request's whole timeout ends its wait for a refresh that never returns (one that
    /// ignores cancellation, as a blocked C callback would).
    @Test func theRequestTimeoutEndsTheWaitForAHangingRefresh() async throws {
        final class Stuck: Authenticator {
            /// The refresh's wait, resumed only when the test is over.
            let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
            func apply(_ credential: Token, to request: inout SessionRequest) {
                request.headers[.authorization] = "Bearer \(credential.value)"
            }
            func refresh(_ credential: Token) async throws -> Token {
                await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } }
                return credential
            }
            func isRequest(_ request: SessionRequest, authenticatedWith credential: Token) -> Bool { true }
        }
        let stuck = Stuck()
        defer { stuck.waiting.withLock { $0?.resume() } }
        // An expired credential: the refresh starts before the first attempt, so the timeout
        // passes while it hangs however long the machine takes to get there.
        let session = try session(
            AuthenticationInterceptor(authenticator: stuck, credential: Token(value: "t", expired: true)))
        var request = SessionRequest(.get, "protected?key=\(UUID().uuidString)")
        request.timeouts = TransferTimeouts(request: .milliseconds(500))
        let response = await session.result(for: request)
        #expect(response.failure?.code == .timedOut)
        #expect(response.failure?.message.contains("interceptor") == true, "\(String(describing: response.failure))")
        #expect(stuck.waiting.withLock { $0 != nil })
    }

    /// httpbin's `/bearer` accepts the token the interceptor applies; without the interceptor
    /// it answers 401.
    @Test func httpbinsBearerEndpointAcceptsTheAppliedToken() async throws {
        let service = TokenService(key: UUID().uuidString, session: plain)
        let auth = AuthenticationInterceptor(authenticator: service, credential: Token(value: "t0ken"))
        let session = try SessionSupport.session(servers.httpbin) { $0.interceptors = [auth] }
        let response = try await session.get("bearer")
        #expect(response.value?["authenticated"] == true)
        #expect(response.value?["token"] == "t0ken")
        let bare = try SessionSupport.session(servers.httpbin)
        #expect(try await bare.result(for: SessionRequest(.get, "bearer")).get().response.status.code == 401)
    }
}
