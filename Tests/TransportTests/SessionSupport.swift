import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Synchronization
import Testing

@testable import Transport

/// Sessions and helpers shared by the Transport tests.
enum SessionSupport {
    /// A session for `base` with retries off unless asked (tests must not wait on backoff).
    static func session(
        _ base: URL, retry: RetryPolicy = .disabled, configure: (inout SessionConfiguration) -> Void = { _ in },
        requestSerializer: (any RequestSerializer)? = nil
    ) throws -> Session {
        var configuration = SessionConfiguration()
        configuration.retryPolicy = retry
        configure(&configuration)
        return try Session(
            baseURL: base.absoluteString, configuration: configuration, registry: .standard(),
            requestSerializer: requestSerializer)
    }

    /// A fresh path in the temporary directory.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("satchel-\(UUID().uuidString)-\(name)").path
    }

    /// The fast server's deterministic bytes `range`.
    static func largeBytes(_ range: Range<Int>) -> [UInt8] {
        range.map { TestServers.largeByte(at: $0) }
    }
}

/// An event monitor that records what it saw.
final class RecordingMonitor: EventMonitor {
    let events = Mutex<[String]>([])

    func requestDidStart(_ request: HTTPRequest, url: String) {
        events.withLock { $0.append("start \(request.method)") }
    }
    func requestWillRedirect(_ request: HTTPRequest, from url: String, to location: String, status: Int) {
        events.withLock { $0.append("redirect \(status)") }
    }
    func requestWillRetry(_ request: HTTPRequest, url: String, retry: Int, delay: Duration, reason: SatchelError) {
        events.withLock { $0.append("retry \(retry)") }
    }
    func requestDidFinishCollecting(_ metrics: TransferMetrics, request: HTTPRequest, url: String) {
        events.withLock { $0.append(metrics.cache.map { "metrics cache \($0)" } ?? "metrics") }
    }
    func requestDidComplete(_ request: HTTPRequest, url: String, response: HTTPResponse?, error: SatchelError?) {
        events.withLock { $0.append("complete \(response?.status.code ?? 0)") }
    }
}
