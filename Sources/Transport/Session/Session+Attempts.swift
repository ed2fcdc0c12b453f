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
        /// The policies' verdict on the attempt's response head (set when the attempt was sent).
        var headDecision: HeadDecision?
        var metrics = TransferMetrics()
        /// The request's span, ended by ``Session/reportCompletion(_:error:)``.
        var span: (any Span)?
    }

    /// What to do with a response once it is in.
    enum Disposition: Sendable {
        case final
        case redirect(to: String)
        case retry(after: Duration)
    }

    /// Where a request stands between its attempts: what the next one sends, and how many
    /// redirects, retries and sends it took so far.
    struct Course {
        /// The request as the caller gave it.
        let request: SessionRequest
        /// The request as the interceptors adapted it for the next attempt.
        var sent: SessionRequest
        /// Where the next attempt goes.
        var url: ResolvedURL
        var head: HTTPRequest
        var body: RequestBody
        var redirects = 0
        var retries = 0
        var sends = 0
        /// When the whole-request timeout passes, if there is one.
        let deadline: ContinuousClock.Instant?
        let interceptor: Interceptor?
        let span: (any Span)?
        /// Replaces the session's retry policy (downloads retry themselves).
        let retryPolicy: RetryPolicy?
        let identityEncoding: Bool
    }

    /// What a request does after an attempt.
    enum Step {
        /// The attempt's outcome is the request's.
        case finish
        /// Another attempt follows (a redirect or a retry; the course says where).
        case again
    }

    /// Sends `request`, following redirects and retrying per the session's policies: one attempt
    /// at a time (``attempt(_:makeSink:cancellation:)``), and after each the policies' decision
    /// (``step(after:course:cancellation:)``).
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
        var course: Course
        switch await prepare(request, adaptedBy: interceptor, attempt: 0, deadline: deadline) {
        case let .success((sent, url, head, body)):
            course = Course(
                request: request, sent: sent, url: url, head: head, body: body, deadline: deadline,
                interceptor: interceptor, span: telemetry.startSpan(head, url: url), retryPolicy: retryPolicy,
                identityEncoding: identityEncoding)
        case let .failure(error):
            let failed = HTTPRequest(method: request.method, scheme: nil, authority: nil, path: request.url)
            return Attempt(url: request.url, request: failed, error: error)
        }
        var attempt = Attempt(url: course.url.absolute, request: course.head)
        while true {
            if let reason = cancellation.reason {
                attempt.error = reason
                break
            }
            attempt = await self.attempt(&course, makeSink: makeSink, cancellation: cancellation)
            guard case .again = await step(after: &attempt, course: &course, cancellation: cancellation) else { break }
        }
        attempt.metrics.redirectCount = course.redirects
        attempt.metrics.retryCount = course.retries
        attempt.metrics.elapsed = ContinuousClock.now - started
        attempt.span = course.span
        return attempt
    }

    /// The policies a request's next decision follows, for the attempt `course` is at.
    func policy(_ course: Course) -> AttemptPolicy {
        AttemptPolicy(
            redirect: configuration.redirectPolicy, retry: course.retryPolicy ?? configuration.retryPolicy,
            retries: course.retries, method: course.head.method, canResend: course.body.canResend)
    }

    /// One attempt of the request at `course`: its options (the time left of the whole timeout),
    /// the cache, the transfer, the cookies it set, the monitors told.
    private func attempt(
        _ course: inout Course, makeSink: (_ isFinal: @escaping @Sendable (HTTPResponse) -> Bool) -> any ResponseSink,
        cancellation: TransferCancellation
    ) async -> Attempt {
        var options: Transfer.Options
        switch attemptOptions(
            course.sent, url: course.url, head: &course.head, body: course.body, sends: course.sends,
            identityEncoding: course.identityEncoding)
        {
        case let .success(prepared):
            options = prepared
        case let .failure(error):
            return Attempt(url: course.url.absolute, request: course.head, error: error)
        }
        if let deadline = course.deadline {
            // The whole-request timeout covers every attempt and every wait between them.
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                let error = wholeTimeoutPassed(course.request, url: options.url, sends: course.sends, underlying: nil)
                return Attempt(url: options.url, request: course.head, error: error)
            }
            options.timeouts.request = remaining
        }
        let headDecision = HeadDecision(policy: policy(course))
        let sink = makeSink(headDecision.isFinal)
        options.collectsBody = sink is MemorySink
        let cacheStep = cacheStep(for: &options, policy: course.request.cachePolicy)
        var attempt = Attempt(url: options.url, request: course.head, sink: sink, headDecision: headDecision)
        for monitor in configuration.eventMonitors { monitor.requestDidStart(course.head, url: options.url) }
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
                        decodesContent: options.acceptsCompressedResponses, validates: cacheStep.validating != nil)
                }
            }
            telemetry.inject(course.span, into: &options.request.headerFields)
            // A body collected in memory, sent from memory or a file, waits on no other task:
            // the caller's thread may drive it (TransferEngine.start(_:leading:)).
            let leading = options.collectsBody && !(options.body is BodyPipe)
            outcome = await send(options, sink: cacheSink ?? sink, leading: leading, cancellation: cancellation)
            pipe?.close()
            await settleCache(
                cacheStep, outcome: &outcome, options: options, sink: sink, cacheSink: cacheSink,
                cancellation: cancellation)
        }
        if outcome.metrics.cache != .hit, options.handlesCookies, let fields = outcome.response?.headerFields,
            fields.contains(.setCookie)
        {
            cookieStore.noteSameSite(of: fields, from: course.url)
            cookieStore.save { [monitors = configuration.eventMonitors] error in
                for monitor in monitors { monitor.sessionDidWarn(error) }
            }
        }
        course.sends += 1
        if let deadline = course.deadline, let error = outcome.error, error.code == .timedOut,
            ContinuousClock.now >= deadline
        {
            outcome.error = wholeTimeoutPassed(course.request, url: options.url, sends: course.sends, underlying: error)
        }
        attempt.response = outcome.response
        attempt.error = outcome.error
        attempt.metrics = outcome.metrics
        telemetry.attemptFinished(outcome.metrics)
        for monitor in configuration.eventMonitors {
            monitor.requestDidFinishCollecting(outcome.metrics, request: course.head, url: options.url)
        }
        return attempt
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
            target: url, request: head, body: stream,
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

    /// Runs one attempt on the engine and waits for it; task cancellation cancels it.
    private func send(
        _ options: Transfer.Options, sink: any ResponseSink, leading: Bool, cancellation: TransferCancellation
    ) async -> Transfer.Outcome {
        let url = options.url
        return await withTaskCancellationHandler {
            let outcome = await withCheckedContinuation { continuation in
                cancellation.start(
                    Transfer(options: options, sink: sink) { continuation.resume(returning: $0) }, leading: leading)
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
    func bounded<Result: Sendable>(
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
    func prepare(
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

    /// The session's interceptors and then the request's, as one; `nil` when there are none.
    private func interceptor(for request: SessionRequest) -> Interceptor? {
        let all = configuration.interceptors + request.interceptors
        return all.isEmpty ? nil : Interceptor(all)
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
            return (try url.withPathAndQuery(of: head), head, request.body)
        }
        let serialized = try serializer.serialize(request.parameters, into: head)
        return (
            try url.withPathAndQuery(of: serialized.request), serialized.request,
            serialized.body.map { .bytes($0, contentType: nil) } ?? .none
        )
    }
}
