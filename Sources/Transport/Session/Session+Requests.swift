// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension Session {
    /// Sends `request` and returns what came of it without throwing: `.failure` when no response
    /// arrived (a transport failure, a cancellation, options libcurl refused), else the response,
    /// whose ``DataResponse/error`` says whether its status, transfer or body failed (the form
    /// the batch helper and the C ABI use).
    ///
    /// ```swift
    /// switch await session.result(for: SessionRequest(.get, "users/42")) {
    /// case .success(let response): print(response.response.status, response.error as Any)
    /// case .failure(let error): print("no response: \(error)")
    /// }
    /// ```
    public func result(for request: SessionRequest) async -> Result<DataResponse, SatchelError> {
        await result(for: request, cancellation: TransferCancellation(engine: engine))
    }

    /// Sends `request` and returns the response, validated.
    ///
    /// A body that passed validation and has a typed decoder is decoded when it is asked for
    /// (``DataResponse/decode(_:)`` straight into the model, ``DataResponse/value`` or
    /// ``DataResponse/get()`` into a ``Value``), and its decoding error is thrown there.
    /// - Throws: ``SatchelError``: transport failures, an unacceptable status or Content-Type
    ///   (with the response, body and decoded value attached), the decoding errors of the other
    ///   bodies.
    public func send(_ request: SessionRequest) async throws(SatchelError) -> DataResponse {
        switch await result(for: request) {
        case let .failure(error): throw error
        case let .success(response):
            if let failure = response.failure { throw failure }
            return response
        }
    }

    /// GET with parameters in the query string.
    /// - Throws: see ``send(_:)``.
    public func get(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.get, url, parameters: parameters, headers: headers))
    }

    /// HEAD with parameters in the query string.
    /// - Throws: see ``send(_:)``.
    public func head(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.head, url, parameters: parameters, headers: headers))
    }

    /// POST with parameters in the body, encoded by the request serializer.
    /// - Throws: see ``send(_:)``.
    public func post(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.post, url, parameters: parameters, headers: headers))
    }

    /// PUT with parameters in the body.
    /// - Throws: see ``send(_:)``.
    public func put(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.put, url, parameters: parameters, headers: headers))
    }

    /// PATCH with parameters in the body.
    /// - Throws: see ``send(_:)``.
    public func patch(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.patch, url, parameters: parameters, headers: headers))
    }

    /// DELETE with parameters in the query string.
    /// - Throws: see ``send(_:)``.
    public func delete(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.delete, url, parameters: parameters, headers: headers))
    }

    // MARK: - Encodable parameters
    //
    // The same requests with any `Encodable` as parameters: encoded to a ``Value`` by
    // ``ValueEncoder`` (keys in declaration order), then placed by the request serializer.

    /// GET, the parameters in the query string, from an `Encodable`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `parameters` cannot be encoded; see ``send(_:)``.
    public func get(
        _ url: String, parameters: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.get, url, parameters: try Self.value(of: parameters), headers: headers))
    }

    /// HEAD, the parameters in the query string, from an `Encodable`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `parameters` cannot be encoded; see ``send(_:)``.
    public func head(
        _ url: String, parameters: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.head, url, parameters: try Self.value(of: parameters), headers: headers))
    }

    /// POST, the parameters in the body, from an `Encodable`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `parameters` cannot be encoded; see ``send(_:)``.
    public func post(
        _ url: String, parameters: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.post, url, parameters: try Self.value(of: parameters), headers: headers))
    }

    /// PUT, the parameters in the body, from an `Encodable`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `parameters` cannot be encoded; see ``send(_:)``.
    public func put(
        _ url: String, parameters: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.put, url, parameters: try Self.value(of: parameters), headers: headers))
    }

    /// PATCH, the parameters in the body, from an `Encodable`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `parameters` cannot be encoded; see ``send(_:)``.
    public func patch(
        _ url: String, parameters: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.patch, url, parameters: try Self.value(of: parameters), headers: headers))
    }

    /// DELETE, the parameters in the query string, from an `Encodable`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `parameters` cannot be encoded; see ``send(_:)``.
    public func delete(
        _ url: String, parameters: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.delete, url, parameters: try Self.value(of: parameters), headers: headers))
    }

    /// `parameters` as a ``Value``.
    static func value(of parameters: some Encodable) throws(SatchelError) -> Value {
        try ValueEncoder().encode(parameters)
    }

    /// Uploads `body` (bytes, a file, a stream or a multipart form), streamed in constant memory.
    ///
    /// - Parameters:
    ///   - parameters: Added to the query string.
    ///   - progress: Upload and download progress, throttled.
    /// - Throws: see ``send(_:)``.
    public func upload(
        _ body: RequestBody, to url: String, method: HTTPRequest.Method = .post, parameters: Value? = nil,
        headers: HTTPFields = [:], progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(SatchelError) -> DataResponse {
        var request = SessionRequest(method, url, parameters: parameters, headers: headers, body: body)
        request.progress = progress
        return try await send(request)
    }

    /// A task for `request` that can be cancelled explicitly; it starts at once.
    public func task(for request: SessionRequest) -> SessionTask {
        SessionTask(session: self, request: request)
    }

    func result(
        for request: SessionRequest, cancellation: TransferCancellation
    ) async -> Result<DataResponse, SatchelError> {
        let serializer = request.responseSerializer ?? responseSerializer
        let validation = request.validation ?? registry.validation
        let limits = registry.limits
        var sink: MemorySink?
        // Counted from the send to the decoded response: a caller drives its transfer only when
        // no other request is between the two (TransferEngine.start(_:leading:)).
        engine.requestsInProgress.add(1, ordering: .relaxed)
        defer { engine.requestsInProgress.subtract(1, ordering: .relaxed) }
        let attempt = await run(request, cancellation: cancellation) { _ in
            let attemptSink = MemorySink(limits: limits)
            sink = attemptSink
            return attemptSink
        }
        // The last attempt's sink, when that attempt was sent (one whose options failed has none).
        let body = sink.flatMap { sink in attempt.sink === sink ? sink.body : nil } ?? []
        let result = decode(attempt, body: body, serializer: serializer, validation: validation)
        switch result {
        case let .success(response): reportCompletion(attempt, error: response.failure)
        case let .failure(error): reportCompletion(attempt, error: error)
        }
        return result
    }

    /// The response of a finished attempt and its whole `body`, decoded on the caller's task
    /// (never on the engine thread, where it would hold up the session's other transfers).
    private func decode(
        _ attempt: Attempt, body: [UInt8], serializer: any ResponseSerializer, validation: ResponseValidation
    ) -> Result<DataResponse, SatchelError> {
        guard let response = attempt.response else {
            return .failure(
                attempt.error ?? SatchelError(.internal, "\(attempt.url): the transfer ended without a response"))
        }
        guard attempt.error == nil else {
            // The head arrived and the transfer failed after it (a cut body, a limit).
            return .success(
                DataResponse(
                    request: attempt.request, url: attempt.url, response: response, body: body,
                    metrics: attempt.metrics, state: .undecoded(error: attempt.error)))
        }
        let limits = registry.limits
        // Every decision about the response, made once: status, Content-Type, sniffing, the
        // serializer and its typed decoder.
        let plan = serializer.plan(for: response, body: body, validation: validation)
        let state: DataResponse.State
        if let typed = plan.typedDecoder, let contentType = plan.contentType {
            // Validated, and a typed decoder reads it: decoded when asked, into the model alone
            // when only `decode(_:)` asks.
            state = .deferred(
                DeferredDecoding(
                    serializer: serializer, plan: plan, typed: (typed, contentType), limits: limits, body: body,
                    url: attempt.url))
        } else {
            var decoded = serializer.serialize(plan, body: body, limits: limits)
            decoded.error = decoded.error?.located(
                at: attempt.url, contentType: plan.contentType, serializerName: decoded.serializerName)
            state = .decoded(decoded, error: decoded.error)
        }
        return .success(
            DataResponse(
                request: attempt.request, url: attempt.url, response: response, body: body,
                metrics: attempt.metrics, state: state))
    }
}
