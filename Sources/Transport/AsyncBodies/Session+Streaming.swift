// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension Session {
    /// Sends `request` and returns as soon as the final response head arrives, with the body
    /// to iterate as it comes (never held whole in memory).
    ///
    /// - Throws: ``SatchelError``: transport failures before the head, or
    ///   ``SatchelError/Code/unacceptableStatusCode`` (the transfer is then cancelled).
    public func bytes(for request: SessionRequest) async throws(SatchelError) -> ResponseBodyStream {
        let cancellation = TransferCancellation(engine: engine)
        let channel = ChunkChannel(cancellation: cancellation)
        Task {
            let attempt = await run(request, cancellation: cancellation) { isFinal in
                StreamSink(channel: channel, isFinal: isFinal)
            }
            channel.close(error: attempt.error)
            reportCompletion(attempt, error: attempt.error)
        }
        let response: HTTPResponse
        do {
            response = try await withTaskCancellationHandler {
                try await channel.awaitHead()
            } onCancel: {
                cancellation.cancel(SatchelError(.cancelled, "\(request.url): the request was cancelled"))
            }
        } catch {
            throw SatchelError.wrap(error)
        }
        let validation = request.validation ?? registry.validation
        guard validation.accepts(status: response.status.code) else {
            cancellation.cancel(SatchelError(.cancelled, "\(request.url): unacceptable status"))
            throw SatchelError(
                .unacceptableStatusCode,
                "\(request.url) answered \(response.status.code) \(response.status.reasonPhrase)"
            )
            .attaching(response: response, body: [])
        }
        return ResponseBodyStream(response: response, channel: channel)
    }

    /// GETs `url` and streams its body; see ``bytes(for:)``.
    /// - Throws: see ``bytes(for:)``.
    public func bytes(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> ResponseBodyStream {
        try await bytes(for: SessionRequest(.get, url, parameters: parameters, headers: headers))
    }
}
