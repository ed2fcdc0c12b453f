// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// The registry as one response serializer: each response is decoded by the registered
/// serializer its Content-Type selects (exact type, then `+suffix`, then wildcards; priority
/// breaks ties), and only when the Content-Type is missing or `application/octet-stream` by the
/// one the body's first bytes select (``Registry/sniff(_:)``: each serializer recognises its own
/// format).
///
/// This is the default response serializer of a registry (``Registry/decode(response:body:)``)
/// and of a transport session. The result names the serializer that decoded the value
/// (``DecodedResponse/serializerName``) and the sniffed type, if sniffing chose it
/// (``DecodedResponse/sniffedContentType``).
///
/// Holds its registry strongly; do not register it in the registry it dispatches to.
public struct DispatchingResponseSerializer: ResponseSerializer {
    /// `"dispatch"`.
    public var name: String { "dispatch" }
    /// The registry whose serializers decode.
    public let registry: Registry

    /// Dispatches to `registry`.
    public init(registry: Registry) {
        self.registry = registry
    }

    /// Every media type (the members validate their own).
    public var acceptableContentTypes: MediaRangeList {
        MediaRangeList(accepting: [MediaType(type: "*", subtype: "*")])
    }

    /// Decodes `body` with the serializer `contentType` selects, sniffing the format when the
    /// type is missing or `application/octet-stream`.
    ///
    /// - Returns: The value, or `nil` for an empty body of unknown format.
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when no registered serializer
    ///   reads the (declared or sniffed) type, or the member's decoding error.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        guard let (serializer, type) = try member(declared: contentType, sample: body)
        else { return nil }
        return try serializer.decode(body, contentType: type, limits: limits)
    }

    /// Decodes a body lent as raw memory as ``decode(_:contentType:limits:)`` does, handing the
    /// buffer itself to the member (which reads it in place where its format can).
    public func decode(
        buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> Value? {
        guard
            let (serializer, type) = try member(
                declared: contentType, sample: Array(buffer.prefix(Registry.sniffLength)))
        else { return nil }
        return try serializer.decode(buffer: buffer, contentType: type, limits: limits)
    }

    /// The member that decodes a body of the `declared` type whose first bytes are in `sample`
    /// (the body, or at least its first ``Registry/sniffLength`` bytes), and the type it reads the
    /// body as (sniffed when the declared one is missing or opaque); `nil` for an empty body of
    /// unknown format.
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when no member reads the type.
    package func member(
        declared: MediaType?, sample: [UInt8]
    ) throws(SatchelError) -> (any ResponseSerializer, MediaType)? {
        let (type, _) = effectiveType(declared: declared, body: sample)
        guard let type else {
            if sample.isEmpty { return nil }
            throw SatchelError(
                .unacceptableContentType, "the body has no Content-Type and its format is not recognisable")
        }
        guard let serializer = registry.responseSerializer(for: type) else {
            throw SatchelError(
                .unacceptableContentType, "no registered serializer accepts Content-Type \(type.essence)")
        }
        return (serializer, type)
    }

    /// Plans the member the response's Content-Type (or, when it is missing or
    /// `application/octet-stream`, the body's sniffed format) selects, its status and type judged
    /// by `validation` with the member's registered media types unless the validation names its
    /// own; no serializer when no member reads the type.
    public func plan(for response: HTTPResponse, body: [UInt8], validation: ResponseValidation) -> ResponsePlan {
        let declared = Result { () throws(SatchelError) in try response.contentType }
        guard case let .success(declaredType) = declared else {
            return ResponsePlan(
                response: response, validation: validation, serializer: nil, declaredContentType: declared)
        }
        let (type, sniffed) = effectiveType(declared: declaredType, body: body)
        guard let type, let entry = registry.responseEntry(for: type) else {
            return ResponsePlan(
                response: response, validation: validation, serializer: nil,
                sniffedContentType: sniffed ? type : nil, declaredContentType: declared)
        }
        var validation = validation
        if validation.acceptableContentTypes == nil { validation.acceptableContentTypes = entry.mediaTypes }
        return ResponsePlan(
            response: response, validation: validation, serializer: entry.serializer,
            sniffedContentType: sniffed ? type : nil, declaredContentType: declared)
    }

    /// Validates and decodes with the member `plan` chose, as that member does
    /// (``ResponseSerializer/validateAndDecode(_:body:limits:)`` by default).
    ///
    /// A non-empty body no member reads fails with ``SatchelError/Code/unacceptableContentType``;
    /// an empty one is no value (with a status error when the status is not acceptable).
    public func serialize(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse {
        let response = plan.response
        var result = DecodedResponse(response: response, value: nil, error: nil, serializerName: nil)
        let declared: MediaType?
        switch plan.declaredContentType {
        case let .failure(error):
            result.error = error.attaching(response: response, body: body)
            return result
        case let .success(type):
            declared = type
        }
        if let member = plan.serializer {
            result = member.serialize(plan, body: body, limits: limits)
            result.sniffedContentType = plan.sniffedContentType
            return result
        }
        if body.isEmpty {
            if !plan.acceptsStatus {
                result.error = SatchelError(.unacceptableStatusCode, response.status.unacceptableMessage)
                    .attaching(response: response, body: body)
            }
            return result
        }
        let message: String
        switch (declared, plan.sniffedContentType) {
        case (_, let sniffed?): message = "no registered serializer accepts the sniffed type \(sniffed.essence)"
        case (let declared?, nil): message = "no registered serializer accepts Content-Type \(declared.essence)"
        case (nil, nil): message = "the response has a body but no Content-Type, and its format is not recognisable"
        }
        result.error = SatchelError(.unacceptableContentType, message).attaching(response: response, body: body)
        return result
    }

    /// The type to decode as: the declared one, or the sniffed one when the declared type is
    /// missing or `application/octet-stream` and the body's signature is recognised.
    func effectiveType(declared: MediaType?, body: [UInt8]) -> (type: MediaType?, sniffed: Bool) {
        let opaque = declared == nil || declared?.essence == "application/octet-stream"
        if opaque, let sniffed = registry.sniff(body) { return (sniffed, true) }
        return (declared, false)
    }
}
