// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// An observer of a session's requests (Alamofire's `EventMonitor`): every method has an
/// empty default, so a monitor implements only what it needs.
///
/// Methods are called on the thread driving the transfer (the session's transfer thread, or a
/// caller's thread driving its request alone) or the calling task; they must be quick
/// and must not block.
public protocol EventMonitor: Sendable {
    /// An attempt is about to be sent (the first, after a redirect, or a retry).
    func requestDidStart(_ request: HTTPRequest, url: String)
    /// A redirect is being followed.
    func requestWillRedirect(_ request: HTTPRequest, from url: String, to location: String, status: Int)
    /// A failed attempt will be retried after `delay`.
    func requestWillRetry(_ request: HTTPRequest, url: String, retry: Int, delay: Duration, reason: SatchelError)
    /// An attempt's metrics are in.
    func requestDidFinishCollecting(_ metrics: TransferMetrics, request: HTTPRequest, url: String)
    /// The request is done: `response` is nil when nothing came back, `error` nil on success.
    /// `error` is a transport, validation or decoding failure; a body decoded only when the
    /// caller asks (``DataResponse``) reports its decoding error there, not here.
    func requestDidComplete(_ request: HTTPRequest, url: String, response: HTTPResponse?, error: SatchelError?)
    /// The session worked around a problem outside any request, such as lines of a cookie
    /// file that do not parse, or a cookie file it could not write.
    func sessionDidWarn(_ warning: SatchelError)
}

extension EventMonitor {
    public func requestDidStart(_ request: HTTPRequest, url: String) {}
    public func requestWillRedirect(_ request: HTTPRequest, from url: String, to location: String, status: Int) {}
    public func requestWillRetry(_ request: HTTPRequest, url: String, retry: Int, delay: Duration, reason: SatchelError)
    {}
    public func requestDidFinishCollecting(_ metrics: TransferMetrics, request: HTTPRequest, url: String) {}
    public func requestDidComplete(_ request: HTTPRequest, url: String, response: HTTPResponse?, error: SatchelError?) {
    }
    public func sessionDidWarn(_ warning: SatchelError) {}
}
