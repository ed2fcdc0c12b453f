// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// The status codes and content types a response may have (AFNetworking's
/// `acceptableStatusCodes` and `acceptableContentTypes`).
public struct ResponseValidation: Sendable, Hashable {
    /// Acceptable status codes; by default 200 to 299.
    public var acceptableStatusCodes: [Range<Int>]
    /// When set, replaces the chosen serializer's own acceptable content types.
    public var acceptableContentTypes: MediaRangeList?

    /// Creates a validation policy.
    public init(acceptableStatusCodes: [Range<Int>] = [200..<300], acceptableContentTypes: MediaRangeList? = nil) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Whether `status` is acceptable.
    public func accepts(status: Int) -> Bool {
        acceptableStatusCodes.contains { $0.contains(status) }
    }
}

extension ResponseSerializer {
    /// Validates and decodes as `plan` says, with AFNetworking's semantics (see
    /// ``validateAndDecode(_:body:limits:)``).
    public func serialize(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse {
        validateAndDecode(plan, body: body, limits: limits)
    }

    /// Plans, validates and decodes a response (``plan(for:body:validation:)``, then
    /// ``serialize(_:body:limits:)``).
    public func serialize(
        response: HTTPResponse, body: [UInt8], validation: ResponseValidation, limits: Limits
    ) -> DecodedResponse {
        serialize(plan(for: response, body: body, validation: validation), body: body, limits: limits)
    }

    /// Validates and decodes a response with the default ``ResponseValidation`` (2xx).
    public func serialize(response: HTTPResponse, body: [UInt8], limits: Limits) -> DecodedResponse {
        serialize(response: response, body: body, validation: ResponseValidation(), limits: limits)
    }

    /// Validates and decodes `response` as this serializer alone, with AFNetworking's semantics
    /// (``validateAndDecode(_:body:limits:)`` of this serializer's own plan).
    public func validateAndDecode(
        response: HTTPResponse, body: [UInt8], validation: ResponseValidation, limits: Limits
    ) -> DecodedResponse {
        validateAndDecode(
            ResponsePlan(response: response, validation: validation, serializer: self), body: body, limits: limits)
    }

    /// The default ``ResponseSerializer/serialize(_:body:limits:)``: validates and decodes as
    /// `plan` says, with AFNetworking's semantics.
    ///
    /// - A non-empty body whose Content-Type is not acceptable (or that has no Content-Type)
    ///   fails with ``SatchelError/Code/unacceptableContentType`` and is not decoded. An empty
    ///   body with an unacceptable or missing Content-Type is no value, as AFNetworking only
    ///   reports the Content-Type of a response that has data (HEAD, 204).
    /// - A malformed Content-Type fails with ``SatchelError/Code/invalidMediaType``.
    /// - A status outside ``ResponseValidation/acceptableStatusCodes`` fails with
    ///   ``SatchelError/Code/unacceptableStatusCode``, but the body is still decoded and the
    ///   result carries both the value and the error.
    /// - A decoding failure is the error (as the underlying error of a status failure).
    public func validateAndDecode(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse {
        let response = plan.response
        var result = DecodedResponse(response: response, value: nil, error: nil, serializerName: name)
        result.sniffedContentType = plan.sniffedContentType
        func validationError(_ code: SatchelError.Code, _ message: String) -> SatchelError {
            SatchelError(code, message).attaching(response: response, body: body)
        }
        if case let .failure(error) = plan.declaredContentType, plan.sniffedContentType == nil {
            result.error = error.attaching(response: response, body: body)
            return result
        }
        let contentType = plan.contentType
        if !plan.acceptsContentType && !body.isEmpty {
            let acceptable = plan.acceptableContentTypes ?? acceptableContentTypes
            result.error = validationError(
                .unacceptableContentType,
                contentType.map {
                    "Content-Type \($0.essence) is not acceptable to the \(name) serializer (acceptable: \(acceptable))"
                } ?? "the response has a body but no Content-Type (acceptable: \(acceptable))")
            return result
        }

        var statusError: SatchelError?
        if !plan.acceptsStatus {
            statusError = validationError(.unacceptableStatusCode, response.status.unacceptableMessage)
        }
        guard plan.acceptsContentType || contentType == nil else {
            // An empty body of a type this serializer does not read: no value, nothing to decode.
            result.error = statusError
            return result
        }

        do {
            result.value = try decode(body, contentType: contentType, limits: limits)
            if var statusError {
                statusError.decodedValue = result.value
                result.error = statusError
            }
        } catch let decodeError {
            if var statusError {
                statusError.underlying = decodeError
                result.error = statusError
            } else {
                result.error = decodeError.attaching(response: response, body: body)
            }
        }
        return result
    }
}

extension HTTPResponse.Status {
    /// `status 404 Not Found is not acceptable` (HTTP/2 responses have no reason phrase).
    var unacceptableMessage: String {
        let reason = reasonPhrase.isEmpty ? "" : " \(reasonPhrase)"
        return "status \(code)\(reason) is not acceptable"
    }
}

extension HTTPResponse {
    /// The parsed Content-Type, or `nil` when there is none.
    /// - Throws: ``SatchelError/Code/invalidMediaType`` when present but malformed.
    public var contentType: MediaType? {
        get throws(SatchelError) {
            guard let text = headerFields.combinedValue(.contentType) else { return nil }
            return try MediaType(parsing: text)
        }
    }
}
