// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Logging
import SerializerRegistry

/// An ``EventMonitor`` that logs each event with swift-log: starts, redirects and completions
/// at `info`, retries at `notice`, metrics at `debug`, failures at `error`.
public struct LoggingEventMonitor: EventMonitor {
    /// Where the events go.
    public let logger: Logger

    /// Logs to `logger`.
    public init(logger: Logger = Logger(label: "satchel.transport")) {
        self.logger = logger
    }

    public func requestDidStart(_ request: HTTPRequest, url: String) {
        logger.info("request started", metadata: ["method": "\(request.method)", "url": "\(url)"])
    }

    public func requestWillRedirect(_ request: HTTPRequest, from url: String, to location: String, status: Int) {
        logger.info("redirect", metadata: ["status": "\(status)", "from": "\(url)", "to": "\(location)"])
    }

    public func requestWillRetry(_ request: HTTPRequest, url: String, retry: Int, delay: Duration, reason: SatchelError)
    {
        logger.notice(
            "retrying",
            metadata: ["url": "\(url)", "retry": "\(retry)", "delay": "\(delay)", "reason": "\(reason.message)"])
    }

    public func requestDidFinishCollecting(_ metrics: TransferMetrics, request: HTTPRequest, url: String) {
        logger.debug(
            "metrics",
            metadata: [
                "url": "\(url)", "total": "\(metrics.total)", "firstByte": "\(metrics.firstByte)",
                "received": "\(metrics.bytesReceived)", "sent": "\(metrics.bytesSent)",
                "http": "\(metrics.httpVersion)",
                "reused": "\(metrics.reusedConnection)",
            ])
    }

    public func requestDidComplete(_ request: HTTPRequest, url: String, response: HTTPResponse?, error: SatchelError?) {
        if let error {
            logger.error(
                "request failed", metadata: ["url": "\(url)", "code": "\(error.code)", "error": "\(error.message)"])
        } else {
            logger.info("request completed", metadata: ["url": "\(url)", "status": "\(response?.status.code ?? 0)"])
        }
    }
}
