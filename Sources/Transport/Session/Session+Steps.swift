// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Tracing

extension Session {
    /// What the policies make of an attempt: the session's redirect and retry policies first,
    /// then the interceptors' retry; the course is updated for the attempt that follows.
    /// `attempt` takes the error of a step that fails (a redirect refused, a wait cancelled).
    func step(after attempt: inout Attempt, course: inout Course, cancellation: TransferCancellation) async -> Step {
        // An attempt that was never sent (its options failed) is the request's outcome.
        guard let sink = attempt.sink, let headDecision = attempt.headDecision else { return .finish }
        let next: Disposition?
        if let error = attempt.error {
            // A streamed response already handed to its consumer cannot be taken back.
            next = cancellation.reason == nil && !sink.hasHandedOn ? policy(course).retry(after: error) : nil
        } else if let response = attempt.response {
            next = headDecision.disposition(of: response)
        } else {
            next = nil
        }
        switch next {
        case nil:
            // The session's policies are done with it: the interceptors may still retry.
            guard cancellation.reason == nil, !sink.hasHandedOn else { return .finish }
            return await interceptorStep(after: &attempt, course: &course, cancellation: cancellation)
        case .final?:
            return .finish
        case let .redirect(location)?:
            let status = attempt.response?.status.code ?? 0
            switch followRedirect(
                to: location, status: status, redirects: course.redirects, from: course.url, head: course.head,
                body: course.body)
            {
            case let .success((target, nextHead, nextBody)):
                for monitor in configuration.eventMonitors {
                    monitor.requestWillRedirect(course.head, from: attempt.url, to: target.absolute, status: status)
                }
                telemetry.redirect(course.span, status: status, to: SessionTelemetry.fullURL(target))
                (course.url, course.head, course.body) = (target, nextHead, nextBody)
                course.redirects += 1
                return .again
            case let .failure(error):
                attempt.error = error
                return .finish
            }
        case let .retry(delay)?:
            // A retry whose wait would outlast the whole-request timeout is not made: the last
            // attempt's outcome is the answer.
            guard fits(delay, before: course.deadline) else { return .finish }
            let reason =
                attempt.error
                ?? SatchelError(
                    .unacceptableStatusCode, "\(attempt.url) answered \(attempt.response?.status.code ?? 0)")
            if let cancelled = await announceRetry(
                course.head, url: attempt.url, retry: course.retries + 1, delay: delay, reason: reason,
                span: course.span)
            {
                attempt.error = cancelled
                return .finish
            }
            course.retries += 1
            return .again
        }
    }

    /// The interceptors' decision about a failed attempt the session's policies would not retry:
    /// a retry (after a delay, adapted again) or the attempt's outcome (or their own error).
    private func interceptorStep(
        after attempt: inout Attempt, course: inout Course, cancellation: TransferCancellation
    ) async -> Step {
        guard let interceptor = course.interceptor,
            let failure = failure(of: attempt, retries: course.retries, validation: course.request.validation)
        else { return .finish }
        let decision: RetryDecision
        do {
            decision = try await bounded(by: course.deadline, url: attempt.url) { [sent = course.sent] in
                await interceptor.retry(sent, after: failure)
            }
        } catch {
            // `bounded` runs the interceptor's async work, whose errors are untyped.
            attempt.error = SatchelError.wrap(error)
            return .finish
        }
        if let reason = cancellation.reason {  // cancelled while the interceptor decided
            attempt.error = reason
            return .finish
        }
        let delay: Duration
        switch decision {
        case .doNotRetry:
            return .finish
        case .fail(let error):
            attempt.error = error
            return .finish
        case .retry:
            delay = .zero
        case .retryAfter(let wait):
            delay = wait
        }
        guard fits(delay, before: course.deadline) else { return .finish }
        guard course.body.canResend else {
            attempt.error = SatchelError(
                .invalidArgument,
                "\(attempt.url): an interceptor retries the request, but its body cannot be sent again")
            return .finish
        }
        if let cancelled = await announceRetry(
            course.head, url: attempt.url, retry: course.retries + 1, delay: delay, reason: failure.error,
            span: course.span)
        {
            attempt.error = cancelled
            return .finish
        }
        course.retries += 1
        switch await prepare(
            course.request, adaptedBy: interceptor, attempt: course.retries, deadline: course.deadline)
        {
        case let .success((sent, url, head, body)):
            (course.sent, course.url, course.head, course.body) = (sent, url, head, body)
            return .again
        case let .failure(error):
            attempt.error = error
            return .finish
        }
    }

    /// Whether a retry after `delay` starts before `deadline` (always, without one).
    private func fits(_ delay: Duration, before deadline: ContinuousClock.Instant?) -> Bool {
        deadline.map { ContinuousClock.now + delay < $0 } ?? true
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
