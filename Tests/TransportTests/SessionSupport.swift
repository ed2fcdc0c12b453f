// SPDX-License-Identifier: Apache-2.0
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

    /// The fast server's deterministic bytes `range`, built from their 251-byte period (a
    /// byte-by-byte map of megabytes is slow under a sanitizer, and the tests' time limits count).
    static func largeBytes(_ range: Range<Int>) -> [UInt8] {
        periodic(range, period: (0..<251).map { TestServers.largeByte(at: $0) })
    }

    /// `satchel serve`'s `/bytes/N` bytes `range` (byte i is i mod 251), built the same way.
    static func serveBytes(_ range: Range<Int>) -> [UInt8] {
        periodic(range, period: (0..<251).map { UInt8($0) })
    }

    private static func periodic(_ range: Range<Int>, period: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count + period.count)
        let start = range.lowerBound % period.count
        bytes += period[start...]
        while bytes.count < range.count { bytes += period }
        return Array(bytes.prefix(range.count))
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

extension Result where Success == DataResponse, Failure == SatchelError {
    /// The failure (no response arrived), or the response's own error.
    var error: SatchelError? {
        switch self {
        case let .success(response): response.error
        case let .failure(error): error
        }
    }

    /// The failure (no response arrived), or the response's failure known without decoding.
    var failure: SatchelError? {
        switch self {
        case let .success(response): response.failure
        case let .failure(error): error
        }
    }

    /// The response, when one arrived.
    var response: DataResponse? { try? get() }
}

extension Result where Success == DownloadResponse, Failure == SatchelError {
    /// The failure (no response arrived), or the download's own error.
    var error: SatchelError? {
        switch self {
        case let .success(response): response.error
        case let .failure(error): error
        }
    }

    /// The download's response, when one arrived.
    var response: DownloadResponse? { try? get() }
}
