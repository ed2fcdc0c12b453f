// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension Session {
    /// Sends `request` and returns its response's records as they arrive: the serializer that
    /// the registry picks for the response's Content-Type must read records
    /// (``RecordReadingSerializer``: `text/event-stream`, JSON Lines, `application/json-seq`, and
    /// `multipart/*`, whose parts are the records, each decoded by its own Content-Type).
    ///
    /// - Throws: ``SatchelError``: what ``bytes(for:)`` throws; ``SatchelError/Code/unacceptableContentType``
    ///   when the Content-Type is missing or not a record stream (the transfer is then cancelled).
    public func records(for request: SessionRequest) async throws(SatchelError) -> RecordStream<Value> {
        let (body, contentType, serializer) = try await recordBody(for: request, reading: "a record stream") {
            $0 as? any RecordReadingSerializer
        }
        let limits = registry.limits
        return RecordStream(
            response: body.response, serializer: serializer, contentType: contentType, limits: limits, body: body
        ) {
            RecordDecoder(serializer.makeRecordReader(contentType: contentType, limits: limits))
        }
    }

    /// Sends `request` and returns, as they arrive, the elements at `path` of the one large JSON
    /// or XML document its response is (exports, dumps, feeds), each as soon as its last byte
    /// has arrived, in memory bounded by the largest element.
    ///
    /// ```swift
    /// let orders = try await session.records(for: SessionRequest(.get, "orders/export"), each: "/data/items")
    /// for try await order in try orders.elements(of: Order.self) { print(order.id) }
    /// print(orders.rest?["next"] ?? "last page")
    /// ```
    ///
    /// - Parameters:
    ///   - path: For JSON, a JSON Pointer (RFC 6901) to an array: `""` for a top-level array,
    ///     `/data/items` inside an envelope (`JSONElementReader`). For XML, an element path:
    ///     `/feed/entry`, `//item`, `atom:entry` with `namespaces` (`XMLElementReader`).
    ///   - namespaces: The prefixes an XML path uses, each to its namespace URI.
    /// - Throws: ``SatchelError``: what ``bytes(for:)`` throws;
    ///   ``SatchelError/Code/unacceptableContentType`` when the registry's serializer for the
    ///   response's Content-Type reads neither JSON nor XML, ``SatchelError/Code/invalidArgument``
    ///   for a path its format cannot read (the transfer is then cancelled). Iteration throws
    ///   where the document is malformed, after the elements before it.
    public func records(
        for request: SessionRequest, each path: String, namespaces: [String: String] = [:]
    ) async throws(SatchelError) -> RecordStream<Value> {
        let (body, contentType, base) = try await recordBody(for: request, reading: "a JSON or XML document") {
            $0 as? any ElementReadingSerializer
        }
        let limits = registry.limits
        let serializer = ElementRecordsSerializer(base: base, path: path, namespaces: namespaces)
        do {
            _ = try serializer.makeElementReader(contentType: contentType, limits: limits)
        } catch {
            body.cancel()
            throw error.attaching(response: body.response, body: [])
        }
        return RecordStream(
            response: body.response, serializer: serializer, contentType: contentType, limits: limits, body: body
        ) {
            RecordDecoder(serializer.makeRecordReader(contentType: contentType, limits: limits))
        }
    }

    /// GETs `url` and returns the elements at `path` of its document as they arrive; see
    /// ``records(for:each:namespaces:)``.
    /// - Throws: see ``records(for:each:namespaces:)``.
    public func records(
        _ url: String, each path: String, namespaces: [String: String] = [:], parameters: Value? = nil,
        headers: HTTPFields = [:]
    ) async throws(SatchelError) -> RecordStream<Value> {
        try await records(
            for: SessionRequest(.get, url, parameters: parameters, headers: headers), each: path, namespaces: namespaces
        )
    }

    /// Sends `request` and finds the registry's serializer for its response's Content-Type, as
    /// `pick` wants it; cancels the transfer and throws when there is none.
    private func recordBody<Serializer>(
        for request: SessionRequest, reading wanted: String, _ pick: (any ResponseSerializer) -> Serializer?
    ) async throws(SatchelError) -> (ResponseBodyStream, MediaType, Serializer) {
        let body = try await bytes(for: request)
        let response = body.response
        let contentType: MediaType?
        do {
            contentType = try response.contentType
        } catch {
            body.cancel()
            throw error.attaching(response: response, body: [])
        }
        guard let contentType, let serializer = registry.responseSerializer(for: contentType).flatMap(pick) else {
            body.cancel()
            throw SatchelError(
                .unacceptableContentType,
                "\(request.url): Content-Type \(response.headerFields.combinedValue(.contentType) ?? "(none)") is not \(wanted) the registry reads"
            )
            .attaching(response: response, body: [])
        }
        return (body, contentType, serializer)
    }

    /// GETs `url` and returns its records as they arrive; see ``records(for:)``.
    /// - Throws: see ``records(for:)``.
    public func records(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> RecordStream<Value> {
        try await records(for: SessionRequest(.get, url, parameters: parameters, headers: headers))
    }
}
