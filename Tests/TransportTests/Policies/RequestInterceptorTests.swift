// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// Interceptors against the fast test server: `/retry?key=K&fail=N&status=S` answers S to the
/// first N requests for K, `/retry-count` says how many came, `/echo-headers` shows what was sent.
@Suite(.hangGuard)
struct RequestInterceptorTests {
    /// Adds `X-Token: <name><attempt>` and retries a 401 up to `retries` times.
    final class Tokens: RequestInterceptor {
        let name: String
        let retries: Int
        let adapted = Mutex<[Int]>([])

        init(name: String, retries: Int) {
            self.name = name
            self.retries = retries
        }

        func adapt(_ request: SessionRequest, attempt: Int) async throws -> SessionRequest {
            adapted.withLock { $0.append(attempt) }
            var request = request
            request.headers[HTTPField.Name("X-Token")!] = "\(name)\(attempt)"
            return request
        }

        func retry(_ request: SessionRequest, after failure: AttemptFailure) async -> RetryDecision {
            failure.response?.status.code == 401 && failure.retryCount < retries ? .retry : .doNotRetry
        }
    }

    struct Refusal: Error {}

    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    func session(_ interceptors: [any RequestInterceptor] = []) throws -> Session {
        try SessionSupport.session(servers.fast) { $0.interceptors = interceptors }
    }

    func attempts(_ key: String) async throws -> Int64? {
        try await session().get("retry-count?key=\(key)").value?["attempts"]?.int64Value
    }

    /// An interceptor that implements neither method sends each request as it is, once.
    @Test func theDefaultsSendAsIsAndDoNotRetry() async throws {
        struct Bystander: RequestInterceptor {}
        let key = UUID().uuidString
        let response = try await session([Bystander()]).result(
            for: SessionRequest(.get, "retry?key=\(key)&fail=1&status=401")
        ).get()
        #expect(response.response.status.code == 401)
        #expect(try await attempts(key) == 1)
        let request = SessionRequest(.get, "echo-headers", headers: [.accept: "text/plain"])
        #expect(try await Bystander().adapt(request, attempt: 3).headers == request.headers)
    }

    @Test func aRefusedAttemptIsAdaptedAgainAndRetried() async throws {
        let tokens = Tokens(name: "t", retries: 2)
        let key = UUID().uuidString
        let response = try await session([tokens]).get("retry?key=\(key)&fail=1&status=401")
        #expect(response.response.status.code == 200)
        #expect(response.value?["attempt"] == 2)
        #expect(tokens.adapted.withLock { $0 } == [0, 1])
        #expect(response.metrics.retryCount == 1)
        #expect(try await attempts(key) == 2)
    }

    @Test func retriesStopWhenTheInterceptorSaysSo() async throws {
        let key = UUID().uuidString
        let response = try await (try session([Tokens(name: "t", retries: 2)])).result(
            for: SessionRequest(.get, "retry?key=\(key)&fail=5&status=401")
        ).get()
        #expect(response.failure?.code == .unacceptableStatusCode)
        #expect(response.response.status.code == 401)
        #expect(try await attempts(key) == 3)
    }

    @Test func theSessionsInterceptorsAdaptBeforeTheRequestsAndTheFirstRetryWins() async throws {
        let first = Tokens(name: "session", retries: 0)
        let second = Tokens(name: "request", retries: 1)
        var request = SessionRequest(.get, "echo-headers")
        request.interceptors = [second]
        let echoed = try await session([first]).send(request)
        // The request's interceptor adapted last, so its header is the one sent.
        #expect(echoed.value?["headers"]?["x-token"] == "request0")
        let key = UUID().uuidString
        var refused = SessionRequest(.get, "retry?key=\(key)&fail=1&status=401")
        refused.interceptors = [second]
        let retried = try await session([first]).send(refused)
        #expect(retried.response.status.code == 200)  // the session's declined, the request's retried
        #expect(first.adapted.withLock { $0 } == [0, 0, 1])
    }

    @Test func failAndRefusalsBecomeTheRequestsError() async throws {
        let failing = Interceptor(retry: { _, failure in
            .fail(SatchelError(.invalidArgument, "gave up after \(failure.response?.status.code ?? 0)"))
        })
        let failed = await (try session([failing])).result(
            for: SessionRequest(.get, "retry?key=\(UUID().uuidString)&fail=1&status=401"))
        #expect(failed.failure?.message == "gave up after 401")
        let refusing = Interceptor(adapt: { _, _ in throw Refusal() })
        let refused = await (try session([refusing])).result(for: SessionRequest(.get, "echo-headers"))
        #expect(refused.failure?.code == .invalidArgument)
        #expect(refused.failure?.message.contains("an interceptor refused the request") == true)
        #expect(refused.response == nil)
    }

    @Test func aBodyThatCannotRewindIsNotSentAgain() async throws {
        let key = UUID().uuidString
        let once = BodyChunks { write in try await write(Array("once".utf8)) }
        let response = try await (try session([Tokens(name: "t", retries: 3)])).result(
            for: SessionRequest(
                .post, "retry?key=\(key)&fail=1&status=401", body: .chunks(once, contentType: .plainText))
        ).get()
        #expect(response.failure?.code == .invalidArgument)
        #expect(response.failure?.message.contains("cannot be sent again") == true)
        #expect(try await attempts(key) == 1)
        // A body in memory is sent again, whole.
        let again = UUID().uuidString
        let resent = try await session([Tokens(name: "t", retries: 3)]).send(
            SessionRequest(.post, "retry?key=\(again)&fail=1&status=401", body: .bytes([1, 2, 3], contentType: nil)))
        #expect(resent.response.status.code == 200)
        #expect(try await attempts(again) == 2)
    }

    /// The retry policy as an interceptor decides as the session's does: a 503 is retried
    /// (after its Retry-After), a POST is not.
    @Test func theRetryPolicyIsAnInterceptor() async throws {
        var policy = RetryPolicy()
        policy.exponentialBackoffScale = 0.01
        let failure = AttemptFailure(
            error: SatchelError(.unacceptableStatusCode, "503"),
            response: HTTPResponse(status: .init(code: 503), headerFields: [.retryAfter: "0"]), retryCount: 0)
        guard case .retryAfter(let wait) = await policy.retry(SessionRequest(.get, "x"), after: failure) else {
            Issue.record("a GET answered 503 is retried")
            return
        }
        #expect(wait == .zero)
        #expect(await policy.retry(SessionRequest(.post, "x"), after: failure).declines)
        let exhausted = AttemptFailure(error: failure.error, response: failure.response, retryCount: 2)
        #expect(await policy.retry(SessionRequest(.get, "x"), after: exhausted).declines)
        let dropped = AttemptFailure(error: SatchelError(.networkFailure, "reset"), response: nil, retryCount: 0)
        #expect(!(await policy.retry(SessionRequest(.get, "x"), after: dropped).declines))
    }

    /// Cancelling the request's task ends an interceptor's wait (here for a stream that never
    /// yields) and the request, instead of the retry it then asks for.
    @Test func cancellingTheTaskEndsTheWaitInAnInterceptor() async throws {
        let waiting = Mutex(false)
        let stalling = Interceptor(retry: { _, _ in
            waiting.withLock { $0 = true }
            for await _ in AsyncStream<Int>(unfolding: {
                try? await Task.sleep(for: .seconds(3600)); return nil
            }) {}
            return .retry
        })
        let session = try session([stalling])
        let key = UUID().uuidString
        let task = Task { await session.result(for: SessionRequest(.get, "retry?key=\(key)&fail=5&status=401")) }
        while !waiting.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let response = await task.value
        #expect(response.failure?.code == .cancelled)
        #expect(try await attempts(key) == 1)
    }

    @Test func monitorsSeeEveryAttemptAndTheRetry() async throws {
        let monitor = RecordingMonitor()
        let session = try SessionSupport.session(servers.fast) {
            $0.interceptors = [Tokens(name: "t", retries: 1)]
            $0.eventMonitors = [monitor]
        }
        _ = try await session.get("retry?key=\(UUID().uuidString)&fail=1&status=401")
        #expect(monitor.events.withLock { $0 } == ["start", "retry 1", "start"])
    }

    final class RecordingMonitor: EventMonitor {
        let events = Mutex<[String]>([])
        func requestDidStart(_ request: HTTPRequest, url: String) { events.withLock { $0.append("start") } }
        func requestWillRetry(_ request: HTTPRequest, url: String, retry: Int, delay: Duration, reason: SatchelError) {
            events.withLock { $0.append("retry \(retry)") }
        }
    }
}
