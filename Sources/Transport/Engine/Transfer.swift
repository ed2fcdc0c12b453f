// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import Dispatch
import HTTPTypes
import SerializerRegistry

/// One attempt of a request on the engine: its options, its libcurl handle while it runs, and
/// what came back.
///
/// Everything mutable is touched only by the thread holding the engine's wheel (see
/// ``TransferEngine``): options are applied, callbacks run and the completion fires there,
/// which is why the class is `@unchecked Sendable`; other
/// threads only hand it to the engine.
final class Transfer: @unchecked Sendable {
    /// What to send.
    struct Options {
        /// Where the attempt goes: resolved and normalised once, when the request was prepared.
        var target: ResolvedURL
        var request: HTTPRequest
        var body: (any BodyStream)?
        var timeouts: TransferTimeouts
        var security: SecurityPolicy
        var acceptsCompressedResponses: Bool
        var handlesCookies: Bool
        /// The libcurl share of the session's cookie store.
        var cookieShare: UnsafeMutableRawPointer?
        var progressInterval: Duration
        var progress: (@Sendable (TransferProgress) -> Void)?
        /// Answered to the server's authentication challenges.
        var credential: Credential?
        /// How the connection is made and the transfer paced.
        var route: Route
        /// Whether a large body is preceded by `Expect: 100-continue`.
        var sendsExpectContinue: Bool
        /// Presented to a TLS server that asks for a client certificate.
        var clientIdentity: ClientIdentity?

        /// The target's URL, as libcurl is given it and messages name it.
        var url: String { target.absolute }

        /// Whether the response body is collected in memory (not streamed or saved to a file).
        var collectsBody = false

        /// libcurl's receive buffer for the attempt, which libcurl allocates for every transfer:
        /// 16 KiB (libcurl's default) for a body collected in memory, most of which are small,
        /// else ``Transfer/bufferSize`` for the streams and downloads that move large bodies; a
        /// sixteenth of a second's worth under a download rate limit (paced between deliveries
        /// of the buffer).
        var bufferSize: Int {
            min(
                collectsBody ? Transfer.collectedBufferSize : Transfer.bufferSize,
                max(1024, (route.rateLimit.download ?? .max) / 16))
        }

        /// Whether the attempt may go over HTTP/2, so that it can share a connection.
        var mayMultiplex: Bool {
            route.httpVersion == .http2PriorKnowledge
                || (route.httpVersion == .http2WhenOffered && url.hasPrefix("https:"))
        }
    }

    /// The session's settings for how an attempt's connection is made and its bytes paced.
    struct Route: Hashable {
        /// Whether and through which proxy the attempt travels.
        var proxy: ProxyPolicy
        /// The HTTP versions spoken.
        var httpVersion: HTTPVersionPolicy
        /// The unix domain socket the attempt goes through instead of TCP.
        var unixSocketPath: String?
        /// Where connections for particular hosts go instead.
        var hostOverrides: [HostOverride]
        /// The most bytes per second sent and received.
        var rateLimit: RateLimit
        /// How long an idle connection may wait to be reused.
        var idleConnectionLifetime: Duration
    }

    /// How the attempt ended.
    struct Outcome {
        /// The final head, when one arrived.
        var response: HTTPResponse?
        /// The failure; `nil` when the body arrived whole.
        var error: SatchelError?
        var metrics: TransferMetrics
    }

    let options: Options
    let sink: any ResponseSink
    private let completion: (Outcome) -> Void

    // Engine-thread state.
    var handle: EasyHandle?
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// The `CURLOPT_RESOLVE` and `CURLOPT_CONNECT_TO` lists, which libcurl reads when the
    /// transfer starts.
    var overrideLists: [UnsafeMutablePointer<curl_slist>] = []
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    var headParser = ResponseHeadParser()
    var response: HTTPResponse?
    /// A 401 that libcurl may still answer with the credential (Digest, NTLM): handed to the
    /// sink only when its body or the end of the transfer shows it is the final response.
    var challenge: HTTPResponse?
    /// The first failure a callback saw; it explains libcurl's generic abort code.
    var failure: SatchelError?
    var isPaused = false
    /// The engine running the transfer, which a rate pause asks to resume it.
    weak var engine: TransferEngine?
    /// The limits of ``Options/rateLimit``, made when the transfer is configured.
    var downloadLimiter: RateLimiter?
    var uploadLimiter: RateLimiter?
    /// Whether the transfer was ever paused (its handle is reset before another transfer).
    var hasPaused = false
    var isFinished = false
    var cancelledBeforeStart: SatchelError?
    var lastActivity = ContinuousClock.now
    var lastActivityBytes: Int64 = -1
    var lastProgressReport: ContinuousClock.Instant?

    init(options: Options, sink: any ResponseSink, completion: @escaping (Outcome) -> Void) {
        self.options = options
        self.sink = sink
        self.completion = completion
        errorBuffer.initialize(to: 0)
    }

    deinit {
        errorBuffer.deallocate()
        if let headerList { curl_slist_free_all(headerList) }
        for list in overrideLists { curl_slist_free_all(list) }
    }

    /// Ends the attempt once: tells the sink, reports final progress, collects the metrics,
    /// calls the completion.
    func finish(code: CURLcode) {
        guard !isFinished else { return }
        isFinished = true
        if let challenge, response == nil {
            self.challenge = nil
            do throws(SatchelError) { try begin(challenge) } catch { fail(error) }
        }
        var error = failure
        if error == nil, code != CURLE_OK {
            error = SatchelError.transfer(code, detail: String(cString: errorBuffer), url: options.url)
            if response == nil, let refusal = proxyRefusal() { (response, error) = refusal }
            if let path = options.route.unixSocketPath, error?.code == .cannotConnect {
                error?.message += " (through the unix socket \(path))"
            }
        }
        if error == nil, response == nil {
            error = SatchelError(.networkFailure, "\(options.url): the server closed the connection without a response")
        }
        sink.finish(error: error)
        if error == nil { reportFinalProgress() }
        completion(Outcome(response: response, error: error, metrics: collectMetrics()))
    }

    /// The final response head: kept, and handed to the sink.
    func begin(_ head: HTTPResponse) throws(SatchelError) {
        response = head
        headParser.settle(on: head)
        try sink.begin(head)
    }

    /// The head and error of a proxy that answered the `CONNECT` for the tunnel with a status
    /// other than 2xx (libcurl reports only a receive error): the status is the response.
    private func proxyRefusal() -> (HTTPResponse, SatchelError)? {
        guard let handle else { return nil }
        let code = handle.long(CURLINFO_HTTP_CONNECTCODE)
        guard code >= 300, code < 1000 else { return nil }
        let head = HTTPResponse(status: .init(code: code))
        var error = SatchelError(
            .unacceptableStatusCode,
            "\(options.url): the proxy refused the tunnel with status \(code) \(head.status.reasonPhrase)")
        error.response = head
        return (head, error)
    }

    /// Pauses the transfer for `delay` to keep it under its rate limit: the engine resumes it
    /// then (libcurl hands the refused bytes, or asks for the body, again).
    func pauseForRate(_ delay: Duration) {
        isPaused = true
        hasPaused = true
        let engine = self.engine
        let milliseconds = Int(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(max(1, milliseconds))) { [self] in
            engine?.enqueue(.resume(self))
        }
    }

    /// Ends an attempt that never ran or was cut short by the engine.
    func abandon(_ error: SatchelError) {
        if failure == nil { failure = error }
        finish(code: CURLE_ABORTED_BY_CALLBACK)
    }

    /// Remembers the first failure; later ones are consequences.
    func fail(_ error: SatchelError) {
        if failure == nil { failure = error }
    }

    private func collectMetrics() -> TransferMetrics {
        var metrics = TransferMetrics()
        guard let handle else { return metrics }
        func duration(_ info: CURLINFO) -> Duration { .microseconds(handle.offset(info)) }
        metrics.nameLookup = duration(CURLINFO_NAMELOOKUP_TIME_T)
        metrics.connect = duration(CURLINFO_CONNECT_TIME_T)
        metrics.tlsHandshake = duration(CURLINFO_APPCONNECT_TIME_T)
        metrics.firstByte = duration(CURLINFO_STARTTRANSFER_TIME_T)
        metrics.total = duration(CURLINFO_TOTAL_TIME_T)
        metrics.bytesSent = handle.offset(CURLINFO_SIZE_UPLOAD_T) + Int64(handle.long(CURLINFO_REQUEST_SIZE))
        metrics.bytesReceived = handle.offset(CURLINFO_SIZE_DOWNLOAD_T)
        metrics.httpVersion = headParser.version
        metrics.reusedConnection = handle.long(CURLINFO_NUM_CONNECTS) == 0 && response != nil
        return metrics
    }

    /// The last report, with the final byte counts.
    private func reportFinalProgress() {
        guard let progress = options.progress, let handle else { return }
        let received = sink.initialOffset + handle.offset(CURLINFO_SIZE_DOWNLOAD_T)
        let sent = handle.offset(CURLINFO_SIZE_UPLOAD_T)
        progress(
            TransferProgress(
                uploadedBytes: sent, expectedUploadBytes: options.body?.length ?? sent,
                downloadedBytes: received, expectedDownloadBytes: received))
    }
}
