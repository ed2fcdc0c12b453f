// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension Session {
    /// Downloads `url` to the file `destination`, resuming an interrupted download of the same
    /// resource when `resume` is set.
    ///
    /// The body goes to `destination.part` and is moved to `destination` only once complete, so
    /// `destination` never holds a partial or corrupted file; with the configuration's
    /// ``SessionConfiguration/downloadDurability`` at ``DownloadDurability/synced`` (the default)
    /// the file and the rename are flushed to the disk before the call returns. When a partial file and its
    /// ``ResumeData`` exist, the request carries `Range: bytes=N-` and `If-Range`; a 206 that
    /// continues at byte N is appended, a 200 (the resource changed) starts over. An interrupted
    /// download (error or cancellation) leaves the partial file for the next call.
    ///
    /// - Parameters:
    ///   - resume: Continue a partial download when possible; when `false`, start over.
    ///   - durability: Whether the file is flushed to the disk before it is renamed into place;
    ///     `nil` for the configuration's ``SessionConfiguration/downloadDurability``.
    ///   - progress: Byte counts including the bytes already on disk.
    /// - Throws: ``SatchelError``: transport failures, an unacceptable status (nothing is
    ///   written), file errors.
    public func download(
        _ url: String, to destination: String, parameters: Value? = nil, headers: HTTPFields = [:], resume: Bool = true,
        durability: DownloadDurability? = nil, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(SatchelError) -> DownloadResponse {
        var request = SessionRequest(.get, url, parameters: parameters, headers: headers)
        request.progress = progress
        let result = try await downloadResponse(for: request, to: destination, resume: resume, durability: durability)
            .get()
        if let error = result.error { throw error }
        return result
    }

    /// Sends `request` and saves its body to the file `destination`, as
    /// ``download(_:to:parameters:headers:resume:durability:progress:)`` does, without throwing:
    /// `.failure` when no response arrived, else the response, whose
    /// ``DownloadResponse/error`` says whether its status, transfer or file failed (as
    /// ``result(for:)``; the form the C ABI uses).
    public func downloadResponse(
        for request: SessionRequest, to destination: String, resume: Bool = true, durability: DownloadDurability? = nil
    ) async -> Result<DownloadResponse, SatchelError> {
        let durability = durability ?? configuration.downloadDurability
        var request = request
        let resolved = (try? ResolvedURL(request.url, relativeTo: baseURL))?.absolute ?? request.url
        if !resume { ResumeData.discard(for: destination) }
        let policy = configuration.retryPolicy
        var retries = 0
        var restarted = false
        while true {
            var offset: Int64 = 0
            if let (record, size) = ResumeData.stored(for: destination), size > 0, let validator = record.ifRange,
                record.url == resolved
            {
                offset = size
                request.headers[.range] = "bytes=\(size)-"
                request.headers[.ifRange] = validator
            } else {
                ResumeData.discard(for: destination)
                request.headers[.range] = nil
                request.headers[.ifRange] = nil
            }
            var result = await download(
                request, from: resolved, to: destination, offset: offset, durability: durability)
            if offset > 0, case let .success(response) = result, response.response.status.code == 416, !restarted {
                // The bytes on disk do not fit the resource any more: start over, once.
                ResumeData.discard(for: destination)
                restarted = true
                continue
            }
            let error: SatchelError?
            switch result {
            case var .success(response):
                response.metrics.retryCount = retries
                error = response.error
                result = .success(response)
            case let .failure(failure):
                error = failure
            }
            // A transport failure is retried from the bytes now on disk (never by resending
            // the same Range, which would duplicate what arrived meanwhile).
            guard let error, retries < policy.retryLimit, policy.retryableErrorCodes.contains(error.code),
                !Task.isCancelled
            else { return result }
            let delay = policy.backoff(beforeRetry: retries)
            let head = HTTPRequest(method: request.method, scheme: nil, authority: nil, path: resolved)
            for monitor in configuration.eventMonitors {
                monitor.requestWillRetry(head, url: resolved, retry: retries + 1, delay: delay, reason: error)
            }
            do {
                try await Task.sleep(for: delay)
            } catch {
                let cancelled = SatchelError(.cancelled, "\(resolved): cancelled while waiting to retry the download")
                guard case var .success(response) = result else { return .failure(cancelled) }
                response.error = cancelled
                return .success(response)
            }
            retries += 1
        }
    }

    private func download(
        _ request: SessionRequest, from resolved: String, to destination: String, offset: Int64,
        durability: DownloadDurability
    ) async -> Result<DownloadResponse, SatchelError> {
        let cancellation = TransferCancellation(engine: engine)
        let validation = request.validation ?? registry.validation
        let attempt = await run(request, cancellation: cancellation, identityEncoding: true, retryPolicy: .disabled) {
            isFinal in
            DownloadSink(
                destination: destination, url: resolved, requestedOffset: offset,
                durability: durability, isFinal: isFinal)
        }
        let sink = attempt.sink as? DownloadSink
        guard let head = attempt.response else {
            let error =
                attempt.error ?? SatchelError(.internal, "\(attempt.url): the download ended without a response")
            reportCompletion(attempt, error: error)
            return .failure(error)
        }
        var result = DownloadResponse(
            request: attempt.request, url: attempt.url, response: head, destination: destination, fileSize: 0,
            resumedFrom: sink?.resumedFrom ?? 0, errorBody: sink?.capturedBody ?? [], error: attempt.error,
            metrics: attempt.metrics)
        if result.error == nil, let sink {
            let response = head
            if validation.accepts(status: response.status.code), sink.writesFile {
                do {
                    try sink.commit()
                    result.fileSize = sink.resumedFrom + sink.written
                } catch {
                    result.error = error
                }
            } else {
                result.error = SatchelError(
                    .unacceptableStatusCode,
                    "\(attempt.url) answered \(response.status.code) \(response.status.reasonPhrase); nothing was saved"
                ).attaching(response: response, body: sink.capturedBody)
            }
        }
        reportCompletion(attempt, error: result.error)
        return .success(result)
    }
}
