// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Tracing

extension Session {
    /// The last attempt of a request, after redirects and retries.
    struct Attempt {
        var url: String
        var request: HTTPRequest
        var response: HTTPResponse?
        var error: SatchelError?
        var sink: (any ResponseSink)?
        var metrics = TransferMetrics()
        /// The request's span, ended by ``Session/reportCompletion(_:error:)``.
        var span: (any Span)?
    }

    /// What to do with a response once it is in.
    enum Disposition {
        case final
        case redirect(to: String)
        case retry(after: Duration)
    }

    /// Sends `request`, following redirects and retrying per the session's policies.
    ///
    /// - Parameters:
    ///   - cancellation: Cancels the running attempt and stops further ones.
    ///   - identityEncoding: Ask for the body uncompressed (downloads, so ranges are byte-exact).
    ///   - retryPolicy: Replaces the session's (downloads retry themselves, from the bytes on disk).
    ///   - makeSink: A sink for each attempt; its argument says whether a response head will be
    ///     the request's final one (not a redirect or a retried status).
    func run(
        _ request: SessionRequest, cancellation: TransferCancellation, identityEncoding: Bool = false,
        retryPolicy: RetryPolicy? = nil,
        makeSink: (_ isFinal: @escaping @Sendable (HTTPResponse) -> Bool) -> any ResponseSink
    ) async -> Attempt {
        let started = ContinuousClock.now
        let interceptor = interceptor(for: request)
        let deadline = (request.timeouts ?? configuration.timeouts).request.map { started + $0 }
        var sent = request
        var head: HTTPRequest
        var url: ResolvedURL
        var body: RequestBody
        switch await prepare(request, adaptedBy: interceptor, attempt: 0, deadline: deadline) {
        case let .success(prepared):
            (sent, url, head, body) = prepared
        case let .failure(error):
            let failed = HTTPRequest(method: request.method, scheme: nil, authority: nil, path: request.url)
            return Attempt(url: request.url, request: failed, error: error)
        }
        var attempt = Attempt(url: url.absolute, request: head)
        let span = telemetry.startSpan(head, url: url)
        var redirects = 0
        var retries = 0
        var sends = 0
        attempts: while true {
            if let reason = cancellation.reason {
                attempt.error = reason
                break
            }
            let policy = AttemptPolicy(
                redirect: configuration.redirectPolicy, retry: retryPolicy ?? configuration.retryPolicy,
                retries: retries,
                method: head.method, canResend: body.canResend)
            var options: Transfer.Options
            let sink: any ResponseSink
            switch attemptOptions(
                sent, url: url, head: &head, body: body, sends: sends, identityEncoding: identityEncoding)
            {
            case let .success(prepared):
                options = prepared
                sink = makeSink { policy.disposition(of: $0) == nil }
            case let .failure(error):
                attempt.error = error
                break attempts
            }
            if let deadline {
                // The whole-request timeout covers every attempt and every wait between them.
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else {
                    attempt.error = wholeTimeoutPassed(request, url: options.url, sends: sends, underlying: nil)
                    break attempts
                }
                options.timeouts.request = remaining
            }
            let cacheStep = cacheStep(for: &options, policy: request.cachePolicy)
            attempt = Attempt(url: options.url, request: head, sink: sink)
            for monitor in configuration.eventMonitors { monitor.requestDidStart(head, url: options.url) }
            var outcome: Transfer.Outcome
            if let missing = cacheStep.missing {
                outcome = missing
            } else if let (entry, body) = cacheStep.serving {
                outcome = await serve(entry, body: body, outcome: .hit, into: sink, cancellation: cancellation)
            } else {
                let pipe = options.body as? BodyPipe
                pipe?.connect { cancellation.resume() }
                let cacheSink = cacheStep.key.flatMap { key in
                    configuration.cache.map {
                        CacheSink(
                            inner: sink, cache: $0, key: key, request: options.request,
                            decodesContent: options.acceptsCompressedResponses,
                            validates: cacheStep.validating != nil)
                    }
                }
                telemetry.inject(span, into: &options.request.headerFields)
                outcome = await send(options, sink: cacheSink ?? sink, cancellation: cancellation)
                pipe?.close()
                await settleCache(
                    cacheStep, outcome: &outcome, options: options, sink: sink, cacheSink: cacheSink,
                    cancellation: cancellation)
            }
            if outcome.metrics.cache != .hit, options.handlesCookies, let fields = outcome.response?.headerFields,
                fields.contains(.setCookie)
            {
                cookieStore.noteSameSite(of: fields, from: url)
                cookieStore.save { [monitors = configuration.eventMonitors] error in
                    for monitor in monitors { monitor.sessionDidWarn(error) }
                }
            }
            sends += 1
            if let deadline, let error = outcome.error, error.code == .timedOut, ContinuousClock.now >= deadline {
                outcome.error = wholeTimeoutPassed(request, url: options.url, sends: sends, underlying: error)
            }
            attempt.response = outcome.response
            attempt.error = outcome.error
            attempt.metrics = outcome.metrics
            telemetry.attemptFinished(outcome.metrics)
            for monitor in configuration.eventMonitors {
                monitor.requestDidFinishCollecting(outcome.metrics, request: head, url: options.url)
            }

            let next: Disposition?
            if let error = attempt.error {
                // A streamed response already handed to its consumer cannot be taken back.
                next = cancellation.reason == nil && !sink.hasHandedOn ? policy.retry(after: error) : nil
            } else if let response = attempt.response {
                next = policy.disposition(of: response)
            } else {
                next = nil
            }
            guard let next else {
                // The session's policies are done with it: the interceptors may still retry.
                guard let interceptor, cancellation.reason == nil, !sink.hasHandedOn,
                    let failure = failure(of: attempt, retries: retries, validation: request.validation)
                else { break }
                let delay: Duration
                let decision: RetryDecision
                do {
                    decision = try await bounded(by: deadline, url: attempt.url) { [sent] in
                        await interceptor.retry(sent, after: failure)
                    }
                } catch {
                    // `bounded` runs the interceptor's async work, whose errors are untyped.
                    attempt.error = SatchelError.wrap(error)
                    break
                }
                if let reason = cancellation.reason {  // cancelled while the interceptor decided
                    attempt.error = reason
                    break
                }
                switch decision {
                case .doNotRetry:
                    break attempts
                case .fail(let error):
                    attempt.error = error
                    break attempts
                case .retry:
                    delay = .zero
                case .retryAfter(let wait):
                    delay = wait
                }
                guard fits(delay, before: deadline) else { break }
                guard body.canResend else {
                    attempt.error = SatchelError(
                        .invalidArgument,
                        "\(attempt.url): an interceptor retries the request, but its body cannot be sent again")
                    break
                }
                if let cancelled = await announceRetry(
                    head, url: attempt.url, retry: retries + 1, delay: delay, reason: failure.error, span: span)
                {
                    attempt.error = cancelled
                    break
                }
                retries += 1
                switch await prepare(request, adaptedBy: interceptor, attempt: retries, deadline: deadline) {
                case let .success(prepared):
                    (sent, url, head, body) = prepared
                    continue
                case let .failure(error):
                    attempt.error = error
                    break attempts
                }
            }
            switch next {
            case .final:
                break
            case let .redirect(location):
                let status = attempt.response?.status.code ?? 0
                switch followRedirect(
                    to: location, status: status, redirects: redirects, from: url, head: head, body: body)
                {
                case let .success((target, nextHead, nextBody)):
                    for monitor in configuration.eventMonitors {
                        monitor.requestWillRedirect(head, from: attempt.url, to: target.absolute, status: status)
                    }
                    telemetry.redirect(span, status: status, to: SessionTelemetry.fullURL(target))
                    (url, head, body) = (target, nextHead, nextBody)
                    redirects += 1
                    continue
                case let .failure(error):
                    attempt.error = error
                    break attempts
                }
            case let .retry(delay):
                // A retry whose wait would outlast the whole-request timeout is not made: the last
                // attempt's outcome is the answer.
                guard fits(delay, before: deadline) else { break }
                let reason =
                    attempt.error
                    ?? SatchelError(
                        .unacceptableStatusCode, "\(attempt.url) answered \(attempt.response?.status.code ?? 0)")
                if let cancelled = await announceRetry(
                    head, url: attempt.url, retry: retries + 1, delay: delay, reason: reason, span: span)
                {
                    attempt.error = cancelled
                    break
                }
                retries += 1
                continue
            }
            break
        }
        attempt.metrics.redirectCount = redirects
        attempt.metrics.retryCount = retries
        attempt.metrics.elapsed = ContinuousClock.now - started
        attempt.span = span
        return attempt
    }

    /// Whether a retry after `delay` starts before `deadline` (always, without one).
    private func fits(_ delay: Duration, before deadline: ContinuousClock.Instant?) -> Bool {
        deadline.map { ContinuousClock.now + delay < $0 } ?? true
    }

    /// The error of a request whose whole timeout (``TransferTimeouts/request``) passed, after
    /// `sends` attempts; `underlying` is the last attempt's own timeout error.
    private func wholeTimeoutPassed(
        _ request: SessionRequest, url: String, sends: Int, underlying: SatchelError?
    ) -> SatchelError {
        let timeout = (request.timeouts ?? configuration.timeouts).request ?? .zero
        let when =
            switch sends {
            case 0: "before its first attempt was sent"
            case 1: "after 1 attempt"
            default: "after \(sends) attempts"
            }
        return SatchelError(
            .timedOut,
            "\(url): the request timed out: its whole timeout of \(timeout.wholeMilliseconds) ms "
                + "(TransferTimeouts.request, covering retries) passed \(when)",
            underlying: underlying?.underlying)
    }

    /// Tells the event monitors, the span and the metrics a request is done, with its final
    /// error (validation and decoding included).
    func reportCompletion(_ attempt: Attempt, error: SatchelError?) {
        telemetry.requestFinished(
            attempt.span, request: attempt.request, response: attempt.response, error: error, metrics: attempt.metrics)
        for monitor in configuration.eventMonitors {
            monitor.requestDidComplete(attempt.request, url: attempt.url, response: attempt.response, error: error)
        }
    }

    // The helpers below return a Result and are never inlined: a throwing call inlined into the
    // async `run` makes Swift 6.3.1's release build crash (LLVM CoroSplit, swifterror).

    /// The options of the next attempt; sets the body's Content-Type on `head`.
    @inline(never)
    private func attemptOptions(
        _ request: SessionRequest, url: ResolvedURL, head: inout HTTPRequest, body: RequestBody, sends: Int,
        identityEncoding: Bool
    ) -> Result<Transfer.Options, SatchelError> {
        do {
            return .success(
                try makeAttemptOptions(
                    request, url: url, head: &head, body: body, sends: sends, identityEncoding: identityEncoding))
        } catch {
            // `RequestBody.makeStream` throws untyped errors (a body stream's source may be the caller's).
            return .failure(SatchelError.wrap(error))
        }
    }

    private func makeAttemptOptions(
        _ request: SessionRequest, url: ResolvedURL, head: inout HTTPRequest, body: RequestBody, sends: Int,
        identityEncoding: Bool
    ) throws -> Transfer.Options {
        let security = perHost(configuration.securityPolicies, url) ?? configuration.securityPolicy
        try security.check(scheme: url.scheme)
        let (stream, contentType) = try body.makeStream(attempt: sends)
        if let contentType, !head.headerFields.contains(.contentType) {
            head.headerFields[.contentType] = contentType.description
        }
        return Transfer.Options(
            url: url.scheme + "://" + (head.authority ?? "") + (head.path ?? "/"), request: head, body: stream,
            timeouts: request.timeouts ?? configuration.timeouts, security: security,
            acceptsCompressedResponses: configuration.acceptsCompressedResponses && !identityEncoding,
            handlesCookies: request.handlesCookies ?? configuration.handlesCookies, cookieShare: cookieStore.share,
            progressInterval: configuration.progressInterval,
            progress: request.progress, credential: credential(for: request, at: url), route: route(for: request),
            sendsExpectContinue: configuration.sendsExpectContinue,
            clientIdentity: perHost(configuration.clientIdentities, url) ?? configuration.clientIdentity)
    }

    /// How `request`'s connections are made and paced: the session's settings, its own rate limit.
    private func route(for request: SessionRequest) -> Transfer.Route {
        Transfer.Route(
            proxy: configuration.proxy, httpVersion: configuration.httpVersion,
            unixSocketPath: configuration.unixSocketPath, hostOverrides: configuration.hostOverrides,
            rateLimit: request.rateLimit ?? configuration.rateLimit,
            idleConnectionLifetime: configuration.idleConnectionLifetime)
    }

    /// What `table` holds for `url`: its host and port's entry, else its host's.
    private func perHost<Value>(_ table: [String: Value], _ url: ResolvedURL) -> Value? {
        guard !table.isEmpty else { return nil }
        return table[url.hostAndPort] ?? table[url.host]
    }

    /// The credential an attempt of `request` to `url` answers challenges with: the request's
    /// own while `url` has its origin, else the session's for `url`'s host and port, or host.
    private func credential(for request: SessionRequest, at url: ResolvedURL) -> Credential? {
        if let own = request.credential {
            let original = try? resolvedURLs.resolve(request.url, relativeTo: baseURL)
            return original?.origin == url.origin ? own : nil
        }
        return perHost(configuration.credentials, url)
    }

    /// Where a redirect leads and the request that follows it.
    @inline(never)
    private func followRedirect(
        to location: String, status: Int, redirects: Int, from url: ResolvedURL, head: HTTPRequest, body: RequestBody
    ) -> Result<(ResolvedURL, HTTPRequest, RequestBody), SatchelError> {
        do throws(SatchelError) {
            let target = try ResolvedURL(location, relativeTo: url.absolute)
            guard redirects < configuration.redirectPolicy.maximumRedirects else {
                throw SatchelError(
                    .tooManyRedirects,
                    "\(url.absolute): more than \(configuration.redirectPolicy.maximumRedirects) redirects")
            }
            let (nextHead, nextBody) = try redirected(head, body: body, status: status, from: url, to: target)
            return .success((target, nextHead, nextBody))
        } catch {
            return .failure(error)
        }
    }

    /// Runs one attempt on the engine and waits for it; task cancellation cancels it.
    private func send(
        _ options: Transfer.Options, sink: any ResponseSink, cancellation: TransferCancellation
    ) async -> Transfer.Outcome {
        let url = options.url
        return await withTaskCancellationHandler {
            let outcome = await withCheckedContinuation { continuation in
                cancellation.start(Transfer(options: options, sink: sink) { continuation.resume(returning: $0) })
            }
            // The transfer holds its sink, which may hold the cancellation (a stream's channel does):
            // let go of it once it has ended.
            cancellation.finish()
            return outcome
        } onCancel: {
            cancellation.cancel(SatchelError(.cancelled, "\(url): the request was cancelled"))
        }
    }

    /// Runs an interceptor's `operation`, cancelling it when the request's whole timeout
    /// (`deadline`) passes first: the time a request waits in its interceptors, such as for a
    /// credential refresh, counts against its timeout. An operation that ignores cancellation
    /// still holds the request until it returns.
    /// - Throws: ``SatchelError/Code/timedOut`` past the deadline; else what `operation` throws.
    private func bounded<Result: Sendable>(
        by deadline: ContinuousClock.Instant?, url: String, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        guard let deadline else { return try await operation() }
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            while let outcome = try await group.next() {
                if let outcome {
                    group.cancelAll()
                    return outcome
                }
                if ContinuousClock.now >= deadline {
                    group.cancelAll()
                    throw SatchelError(.timedOut, "\(url): the request timeout passed while an interceptor held it")
                }
            }
            throw SatchelError(.cancelled, "\(url): cancelled while an interceptor held it")
        }
    }

    @inline(never)
    /// The request an attempt sends — `request` as the interceptors adapt it for `attempt` —
    /// with its resolved URL, head and body.
    private func prepare(
        _ request: SessionRequest, adaptedBy interceptor: Interceptor?, attempt: Int,
        deadline: ContinuousClock.Instant?
    ) async -> Result<(SessionRequest, ResolvedURL, HTTPRequest, RequestBody), SatchelError> {
        var adapted = request
        if let interceptor {
            do {
                adapted = try await bounded(by: deadline, url: request.url) {
                    try await interceptor.adapt(request, attempt: attempt)
                }
            } catch let error as SatchelError {
                return .failure(error)
            } catch {
                return .failure(
                    SatchelError(
                        .invalidArgument, "\(request.url): an interceptor refused the request: \(error)",
                        underlying: error))
            }
        }
        do {
            let (url, head, body) = try prepareHead(adapted)
            return .success((adapted, url, head, body))
        } catch {
            return .failure(error)
        }
    }

    /// Tells the event monitors retry number `retry` is coming, then waits `delay`.
    /// - Returns: The error of a wait cut short by cancellation, else `nil`.
    private func announceRetry(
        _ head: HTTPRequest, url: String, retry: Int, delay: Duration, reason: SatchelError, span: (any Span)?
    ) async -> SatchelError? {
        for monitor in configuration.eventMonitors {
            monitor.requestWillRetry(head, url: url, retry: retry, delay: delay, reason: reason)
        }
        telemetry.retry(span, retry: retry, delay: delay, reason: reason)
        do {
            try await Task.sleep(for: delay)
            return nil
        } catch {
            return SatchelError(.cancelled, "\(url): cancelled while waiting to retry")
        }
    }

    /// The session's interceptors and then the request's, as one; `nil` when there are none.
    private func interceptor(for request: SessionRequest) -> Interceptor? {
        let all = configuration.interceptors + request.interceptors
        return all.isEmpty ? nil : Interceptor(all)
    }

    /// Why `attempt` failed, when it did: its transport error, or a status `validation` (else
    /// the registry's) refuses.
    private func failure(of attempt: Attempt, retries: Int, validation: ResponseValidation?) -> AttemptFailure? {
        if let error = attempt.error {
            return AttemptFailure(error: error, response: attempt.response, retryCount: retries)
        }
        guard let response = attempt.response,
            !(validation ?? registry.validation).accepts(status: response.status.code)
        else { return nil }
        return AttemptFailure(
            error: SatchelError(
                .unacceptableStatusCode,
                "\(attempt.url) answered \(response.status.code) \(response.status.reasonPhrase)"),
            response: response, retryCount: retries)
    }

    private func prepareHead(
        _ request: SessionRequest
    ) throws(SatchelError) -> (ResolvedURL, HTTPRequest, RequestBody) {
        let url = try resolvedURLs.resolve(request.url, relativeTo: baseURL)
        var head = HTTPRequest(
            method: request.method, scheme: url.scheme, authority: url.authority, path: url.pathAndQuery)
        head.headerFields = request.headers
        for field in configuration.defaultHeaders where !head.headerFields.contains(field.name) {
            head.headerFields.append(field)
        }
        if !head.headerFields.contains(.accept) {
            head.headerFields.append(registry.acceptField)
        }
        let serializer = request.requestSerializer ?? requestSerializer
        guard request.body.isEmpty else {
            if let parameters = request.parameters {
                let query = try registry.queryString(from: parameters)
                if !query.isEmpty { head.path = URLQuery.appending(query, to: head.path ?? "/") }
            }
            serializer.applyDefaultHeaders(to: &head)
            return (url, head, request.body)
        }
        let serialized = try serializer.serialize(request.parameters, into: head)
        return (url, serialized.request, serialized.body.map { .bytes($0, contentType: nil) } ?? .none)
    }

    /// The head and body of the request that follows a redirect (see ``RedirectPolicy``).
    private func redirected(
        _ head: HTTPRequest, body: RequestBody, status: Int, from: ResolvedURL, to target: ResolvedURL
    ) throws(SatchelError) -> (HTTPRequest, RequestBody) {
        if from.scheme == "https" && target.scheme == "http" && !configuration.redirectPolicy.allowsDowngradeToHTTP {
            throw SatchelError(
                .invalidArgument,
                "\(from.absolute) redirects to plain http (\(target.absolute)); the redirect policy does not allow the downgrade"
            )
        }
        var next = head
        next.scheme = target.scheme
        next.authority = target.authority
        next.path = target.pathAndQuery
        var nextBody = body
        let becomesGet =
            (status == 303 && head.method != .head) || ((status == 301 || status == 302) && head.method == .post)
        if becomesGet {
            next.method = .get
            nextBody = .none
            next.headerFields[.contentType] = nil
            next.headerFields[.contentLength] = nil
        } else if !body.isEmpty && !body.canResend {
            throw SatchelError(
                .invalidArgument,
                "\(from.absolute) redirects with \(status), which resends the body, but the body stream cannot rewind")
        }
        if target.origin != from.origin {
            for name in RedirectPolicy.credentialHeaders { next.headerFields[name] = nil }
        }
        return (next, nextBody)
    }
}
