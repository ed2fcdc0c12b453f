// SPDX-License-Identifier: Apache-2.0
import Logging
import SatchelTestSupport
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// The swift-log monitor and connection reuse, seen through metrics.
@Suite(.hangGuard)
struct EventMonitorTests {
    @Test func theLoggingMonitorLogsEachEventAndConnectionsAreReused() async throws {
        let servers = try TestServers.shared()
        let sink = CapturedLog()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(log: sink) }
        let session = try SessionSupport.session(servers.httpbin) {
            $0.eventMonitors = [LoggingEventMonitor(logger: logger)]
        }
        let first = try await session.get("redirect/1")
        let second = try await session.get("get")
        #expect(first.metrics.redirectCount == 1)
        #expect(second.metrics.reusedConnection)
        #expect(second.metrics.httpVersion == "1.1")
        let failed = try await session.result(for: SessionRequest(.get, "status/503")).get()
        #expect(failed.error != nil)
        let lines = sink.lines.withLock { $0 }
        #expect(lines.contains("info request started"))
        #expect(lines.contains("info redirect"))
        #expect(lines.contains("debug metrics"))
        #expect(lines.contains("info request completed"))
        #expect(lines.contains("error request failed"))
    }

    /// A retry is logged at notice level, once per retry (no backoff: the scale is zero).
    @Test func theLoggingMonitorLogsRetries() async throws {
        let servers = try TestServers.shared()
        let sink = CapturedLog()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(log: sink) }
        var retry = RetryPolicy()
        retry.retryLimit = 1
        retry.exponentialBackoffScale = 0
        let session = try SessionSupport.session(servers.httpbin, retry: retry) {
            $0.eventMonitors = [LoggingEventMonitor(logger: logger)]
        }
        let failed = try await session.result(for: SessionRequest(.get, "status/503")).get()
        #expect(failed.response.status.code == 503 && failed.metrics.retryCount == 1)
        #expect(sink.lines.withLock { $0 }.filter { $0 == "notice retrying" }.count == 1)
    }

    /// The fraction done follows the download when its size is known, else the upload.
    @Test(
        arguments: [
            (
                TransferProgress(
                    uploadedBytes: 0, expectedUploadBytes: nil, downloadedBytes: 25, expectedDownloadBytes: 100), 0.25
            ),
            (
                TransferProgress(
                    uploadedBytes: 0, expectedUploadBytes: nil, downloadedBytes: 150, expectedDownloadBytes: 100), 1.0
            ),
            (
                TransferProgress(
                    uploadedBytes: 30, expectedUploadBytes: 40, downloadedBytes: 0, expectedDownloadBytes: 10), 0.75
            ),
            (
                TransferProgress(
                    uploadedBytes: 30, expectedUploadBytes: 40, downloadedBytes: 5, expectedDownloadBytes: 10), 0.5
            ),
            (
                TransferProgress(
                    uploadedBytes: 30, expectedUploadBytes: 0, downloadedBytes: 0, expectedDownloadBytes: nil), nil
            ),
            (
                TransferProgress(
                    uploadedBytes: 0, expectedUploadBytes: nil, downloadedBytes: 7, expectedDownloadBytes: nil), nil
            ),
        ] as [(TransferProgress, Double?)])
    func fractionCompleted(progress: TransferProgress, expected: Double?) {
        #expect(progress.fractionCompleted == expected)
    }
}

final class CapturedLog: Sendable {
    let lines = Mutex<[String]>([])
}

struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        log.lines.withLock { $0.append("\(event.level) \(event.message)") }
    }
}
