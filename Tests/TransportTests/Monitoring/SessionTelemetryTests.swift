// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import SatchelTestSupport
import SerializerRegistry
import Testing
import Tracing

@testable import Transport

/// Spans (swift-distributed-tracing's `InMemoryTracer`) and metrics (`MetricsTestKit`) of real
/// requests to the fast test server: `/redirect-cross` redirects, `/retry` fails the first
/// attempts, `/echo-headers` shows the fields the server received.
@Suite(.hangGuard)
struct SessionTelemetryTests {
    /// An `InMemoryTracer` whose identifiers have W3C's shape and whose instrument writes
    /// `traceparent`, as an OpenTelemetry tracer's W3C propagator does.
    struct TraceparentTracer: Tracer {
        let inner = InMemoryTracer(
            idGenerator: .init(
                nextTraceID: { Self.hex(16) },
                nextSpanID: { Self.hex(8) }))

        static func hex(_ bytes: Int) -> String {
            (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        }

        func startSpan<Instant: TracerInstant>(
            _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
            at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
        ) -> InMemorySpan {
            inner.startSpan(
                operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID,
                line: line)
        }

        func forceFlush() {}

        func inject<Carrier, Inject: Injector>(
            _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
        ) where Inject.Carrier == Carrier {
            guard let span = context.inMemorySpanContext else { return }
            injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
        }

        func extract<Carrier, Extract: Extractor>(
            _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
        ) where Extract.Carrier == Carrier {}
    }

    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    func session(
        tracer: (any Tracer)? = nil, metrics: TestMetrics? = nil, retry: RetryPolicy = .disabled
    ) throws
        -> Session
    {
        try SessionSupport.session(servers.fast, retry: retry) {
            $0.tracer = tracer
            $0.metricsFactory = metrics
        }
    }

    @Test func aRequestWithARedirectAndARetryIsOneChildSpanWithEvents() async throws {
        let tracer = TraceparentTracer()
        var retry = RetryPolicy()
        retry.exponentialBackoffScale = 0.01
        let session = try session(tracer: tracer, retry: retry)
        let key = UUID().uuidString
        let target = servers.fast.appendingPathComponent("retry").absoluteString + "?key=\(key)&fail=1&status=503"
        let location = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let parent = tracer.startSpan("checkout", context: .topLevel)
        var context = ServiceContext.topLevel
        context.inMemorySpanContext = parent.spanContext
        let response = try await ServiceContext.$current.withValue(context) {
            try await session.get("redirect-cross?to=\(location)")
        }
        parent.end()
        #expect(response.response.status.code == 200)

        let spans = tracer.inner.finishedSpans
        let request = try #require(spans.first { $0.operationName == "GET" })
        #expect(spans.count == 2)
        #expect(request.kind == .client)
        #expect(request.traceID == parent.traceID)
        #expect(request.parentSpanID == parent.spanID)
        #expect(request.attributes.get("http.request.method") == .string("GET"))
        #expect(
            request.attributes.get("url.full")
                == .string(servers.fast.absoluteString + "/redirect-cross?to=\(location)"))
        #expect(request.attributes.get("server.address") == .string("127.0.0.1"))
        #expect(request.attributes.get("server.port") == .int64(Int64(servers.fast.port!)))
        #expect(request.attributes.get("http.response.status_code") == .int64(200))
        #expect(request.attributes.get("http.request.resend_count") == .int64(2))
        #expect(request.status == nil)
        #expect(request.events.map(\.name) == ["http.redirect", "http.retry"])
        #expect(request.events.first?.attributes.get("http.response.status_code") == .int64(302))
        #expect(request.events.first?.attributes.get("url.full") == .string(target))
        #expect(request.events.last?.attributes.get("error.type") == .string("unacceptableStatusCode"))
        #expect(request.events.last?.attributes.get("http.request.resend_count") == .int64(1))
    }

    @Test func theServerReceivesTheSpanContextInEveryAttempt() async throws {
        let tracer = TraceparentTracer()
        let session = try session(tracer: tracer)
        let echoed = try await session.get("echo-headers").value?["headers"]?["traceparent"]?.stringValue
        let span = try #require(tracer.inner.finishedSpans.first)
        #expect(echoed == "00-\(span.traceID)-\(span.spanID)-01")
        // Without a tracer (the default when none is bootstrapped) nothing is added.
        let plain = try await self.session().get("echo-headers").value?["headers"]?["traceparent"]
        #expect(plain == nil)
    }

    @Test func aFailedRequestRecordsItsErrorAndAnErrorStatus() async throws {
        let tracer = TraceparentTracer()
        let session = try session(tracer: tracer)
        // A refused connection: a transport error.
        let refused = try SessionSupport.session(URL(string: "http://127.0.0.1:1/")!) { $0.tracer = tracer }
        _ = try? await refused.get("nothing")
        // A 404: a response, which the span marks as an error by its status.
        _ = try? await session.get("retry?key=\(UUID().uuidString)&fail=1&status=404")
        let spans = tracer.inner.finishedSpans
        #expect(spans.count == 2)
        let failed = try #require(spans.first { $0.attributes.get("http.response.status_code") == nil })
        #expect(failed.attributes.get("error.type") == .string("cannotConnect"))
        #expect(failed.status?.code == .error)
        #expect(failed.errors.count == 1)
        let notFound = try #require(spans.first { $0.attributes.get("http.response.status_code") == .int64(404) })
        #expect(notFound.status?.code == .error)
        #expect(notFound.attributes.get("error.type") != nil)
    }

    @Test func aBatchIsCountedByMethodCodeAndBytes() async throws {
        let metrics = TestMetrics()
        let session = try session(metrics: metrics)
        let requests =
            (0..<8).map { SessionRequest(.get, "echo-headers?i=\($0)") }
            + [SessionRequest(.get, "retry?key=\(UUID().uuidString)&fail=1&status=503")]
        let responses = await session.batch(requests, maximumConcurrent: 4)
        #expect(responses.filter { $0.error == nil }.count == 8, "\(responses.compactMap(\.error))")
        _ = try await session.post("echo-headers", parameters: ["a": "b"])
        #expect(metrics.counterTotal(label: "satchel.requests", dimensions: [("http.request.method", "GET")]) == 9)
        #expect(metrics.counterTotal(label: "satchel.requests", dimensions: [("http.request.method", "POST")]) == 1)
        #expect(
            metrics.counterTotal(
                label: "satchel.request.failures", dimensions: [("error.code", "unacceptableStatusCode")])
                == 1)
        #expect(metrics.counterTotal(label: "satchel.attempts") == 10)
        #expect(metrics.counterTotal(label: "satchel.bytes.received") >= 8 * 100)
        #expect(metrics.counterTotal(label: "satchel.bytes.sent") > 0)
        // At most 4 requests were in flight: later ones reused the connections of earlier ones.
        let reused = metrics.counterTotal(label: "satchel.connections.reused")
        #expect(reused >= 1 && reused <= 10)
        let durations = try metrics.expectTimer("satchel.request.duration", [("http.request.method", "GET")])
        #expect(durations.values.count == 9)
        #expect(durations.values.allSatisfy { $0 > 0 })
    }

    @Test func noTracerAndNoFactoryMeanNothingIsRecorded() throws {
        var configuration = SessionConfiguration()
        // Nothing is bootstrapped in this process: the defaults are the no-op ones.
        #expect(configuration.tracer is NoOpTracer)
        configuration.metricsFactory = nil
        let telemetry = SessionTelemetry(tracer: configuration.tracer, metricsFactory: configuration.metricsFactory)
        #expect(telemetry.tracer == nil)
        let url = try ResolvedURL("http://a/", relativeTo: nil)
        #expect(
            telemetry.startSpan(HTTPRequest(method: .get, scheme: "http", authority: "a", path: "/"), url: url) == nil)
    }
}
