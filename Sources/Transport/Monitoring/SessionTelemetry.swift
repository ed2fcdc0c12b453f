// SPDX-License-Identifier: Apache-2.0
import CoreMetrics
import HTTPTypes
import SerializerRegistry
import Synchronization
import Tracing

/// A session's spans and metrics: what ``SessionConfiguration/tracer`` and
/// ``SessionConfiguration/metricsFactory`` record of each request (Sources/Satchel/Satchel.docc/Sessions.md,
/// "Tracing and metrics"). Made once per session; with neither set (or with the no-op ones
/// of an application that bootstrapped nothing) every method returns at once.
final class SessionTelemetry: Sendable {
    /// The tracer spans go to; `nil` when tracing is off or the tracer is the no-op one.
    let tracer: (any Tracer)?
    private let metrics: Metrics?

    init(tracer: (any Tracer)?, metricsFactory: (any MetricsFactory)?) {
        self.tracer = tracer is NoOpTracer ? nil : tracer
        self.metrics = metricsFactory.flatMap { $0 is NOOPMetricsHandler ? nil : Metrics(factory: $0) }
    }

    /// Starts the span of a request to `url`, a child of the calling task's span if it has one.
    func startSpan(_ request: HTTPRequest, url: ResolvedURL) -> (any Span)? {
        guard let tracer else { return nil }
        let span = tracer.startSpan(
            request.method.rawValue, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.full"] = Self.fullURL(url)
        span.attributes["server.address"] = url.host
        if let port = Int(url.hostAndPort.split(separator: ":").last ?? "") { span.attributes["server.port"] = port }
        return span
    }

    /// Puts `span`'s context into `fields` as the tracer's instrument writes it (W3C
    /// `traceparent` with an OpenTelemetry tracer).
    func inject(_ span: (any Span)?, into fields: inout HTTPFields) {
        guard let tracer, let span else { return }
        tracer.inject(span.context, into: &fields, using: HTTPFieldsInjector())
    }

    /// A redirect from `status` to `location` is followed.
    func redirect(_ span: (any Span)?, status: Int, to location: String) {
        span?.addEvent(
            SpanEvent(
                name: "http.redirect",
                attributes: ["http.response.status_code": .int64(Int64(status)), "url.full": .string(location)]))
    }

    /// The request is sent again (`retry` counts from 1) after `reason`.
    func retry(_ span: (any Span)?, retry: Int, delay: Duration, reason: SatchelError) {
        span?.addEvent(
            SpanEvent(
                name: "http.retry",
                attributes: [
                    "http.request.resend_count": .int64(Int64(retry)), "error.type": .string(reason.code.name),
                    "satchel.retry.delay_ms": .int64(Int64(delay / .milliseconds(1))),
                ]))
    }

    /// One attempt (a transfer, or a response from the cache) is over.
    func attemptFinished(_ metrics: TransferMetrics) {
        guard let counters = self.metrics else { return }
        counters.attempts.increment()
        if metrics.reusedConnection { counters.reusedConnections.increment() }
        counters.bytesSent.increment(by: metrics.bytesSent)
        counters.bytesReceived.increment(by: metrics.bytesReceived)
    }

    /// The request is done: ends `span` and counts it.
    func requestFinished(
        _ span: (any Span)?, request: HTTPRequest, response: HTTPResponse?, error: SatchelError?,
        metrics transfer: TransferMetrics
    ) {
        if let span {
            if let status = response?.status.code {
                span.attributes["http.response.status_code"] = status
                if status >= 400 && error == nil { span.attributes["error.type"] = String(status) }
            }
            if !transfer.httpVersion.isEmpty { span.attributes["network.protocol.version"] = transfer.httpVersion }
            span.attributes["http.response.body.size"] = Int(transfer.bytesReceived)
            let resends = transfer.retryCount + transfer.redirectCount
            if resends > 0 { span.attributes["http.request.resend_count"] = resends }
            if let outcome = transfer.cache { span.attributes["satchel.cache"] = outcome.description }
            if let error {
                span.attributes["error.type"] = error.code.name
                span.recordError(error)
                span.setStatus(SpanStatus(code: .error, message: error.message))
            } else if let status = response?.status.code, status >= 400 {
                span.setStatus(SpanStatus(code: .error))
            }
            span.end()
        }
        guard let counters = self.metrics else { return }
        let method = request.method.rawValue
        counters.counter(Metrics.requests, "http.request.method", method).increment()
        counters.timer(Metrics.duration, "http.request.method", method).recordNanoseconds(
            Self.nanoseconds(transfer.elapsed))
        if let error { counters.counter(Metrics.failures, "error.code", error.code.name).increment() }
    }

    /// `url` as a span shows it: scheme, host, port, path and query, never user information.
    static func fullURL(_ url: ResolvedURL) -> String {
        url.scheme + "://" + url.authority + url.pathAndQuery
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

extension SessionTelemetry {
    /// The metrics a session records, by their stable names (Sources/Satchel/Satchel.docc/Sessions.md).
    final class Metrics: Sendable {
        static let requests = "satchel.requests"
        static let failures = "satchel.request.failures"
        static let duration = "satchel.request.duration"

        let factory: any MetricsFactory
        let attempts: Counter
        let reusedConnections: Counter
        let bytesSent: Counter
        let bytesReceived: Counter
        /// Metrics with one dimension, made on first use: (label, dimension value) → metric.
        private let byDimension = Mutex<[String: AnyObject & Sendable]>([:])

        init(factory: any MetricsFactory) {
            self.factory = factory
            attempts = Counter(label: "satchel.attempts", factory: factory)
            reusedConnections = Counter(label: "satchel.connections.reused", factory: factory)
            bytesSent = Counter(label: "satchel.bytes.sent", factory: factory)
            bytesReceived = Counter(label: "satchel.bytes.received", factory: factory)
        }

        func counter(_ label: String, _ dimension: String, _ value: String) -> Counter {
            metric(label, dimension, value) {
                Counter(label: label, dimensions: [(dimension, value)], factory: factory)
            }
        }

        func timer(_ label: String, _ dimension: String, _ value: String) -> CoreMetrics.Timer {
            metric(label, dimension, value) {
                CoreMetrics.Timer(label: label, dimensions: [(dimension, value)], factory: factory)
            }
        }

        private func metric<M: AnyObject & Sendable>(
            _ label: String, _ dimension: String, _ value: String, make: () -> M
        ) -> M {
            byDimension.withLock { table in
                let key = label + "\u{0}" + value
                if let made = table[key] as? M { return made }
                let made = make()
                table[key] = made
                return made
            }
        }
    }
}

/// Writes a tracer's context fields into a request's header fields.
private struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        fields[name] = value
    }
}
