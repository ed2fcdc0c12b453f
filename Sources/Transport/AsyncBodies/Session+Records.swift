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
        let body = try await bytes(for: request)
        let response = body.response
        let contentType: MediaType?
        do {
            contentType = try response.contentType
        } catch {
            body.cancel()
            throw error.attaching(response: response, body: [])
        }
        guard let contentType,
            let serializer = registry.responseSerializer(for: contentType) as? any RecordReadingSerializer
        else {
            body.cancel()
            throw SatchelError(
                .unacceptableContentType,
                "\(request.url): Content-Type \(response.headerFields.combinedValue(.contentType) ?? "(none)") is not a record stream the registry reads"
            )
            .attaching(response: response, body: [])
        }
        let limits = registry.limits
        return RecordStream(
            response: response, serializer: serializer, contentType: contentType, limits: limits, body: body
        ) {
            RecordDecoder(serializer.makeRecordReader(contentType: contentType, limits: limits))
        }
    }

    /// GETs `url` and returns its records as they arrive; see ``records(for:)``.
    /// - Throws: see ``records(for:)``.
    public func records(
        _ url: String, parameters: Value? = nil, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> RecordStream<Value> {
        try await records(for: SessionRequest(.get, url, parameters: parameters, headers: headers))
    }
}
