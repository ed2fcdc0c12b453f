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
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws -> Value? {
        let (type, _) = effectiveType(declared: contentType, body: body)
        guard let type else {
            if body.isEmpty { return nil }
            throw SatchelError(
                .unacceptableContentType, "the body has no Content-Type and its format is not recognisable")
        }
        guard let serializer = registry.responseSerializer(for: type) else {
            throw SatchelError(
                .unacceptableContentType, "no registered serializer accepts Content-Type \(type.essence)")
        }
        return try serializer.decode(body, contentType: type, limits: limits)
    }

    /// Validates and decodes with the member the response's Content-Type (or its sniffed
    /// format) selects; AFNetworking's semantics otherwise
    /// (``ResponseSerializer/validateAndDecode(response:body:validation:limits:)``).
    ///
    /// A non-empty body no member reads fails with ``SatchelError/Code/unacceptableContentType``;
    /// an empty one is no value (with a status error when the status is not acceptable).
    public func serialize(
        response: HTTPResponse, body: [UInt8], validation: ResponseValidation, limits: Limits
    ) -> DecodedResponse {
        let declared: MediaType?
        do {
            declared = try response.contentType
        } catch {
            return DecodedResponse(
                response: response, value: nil, error: error.attaching(response: response, body: body),
                serializerName: nil)
        }
        let (type, sniffed) = effectiveType(declared: declared, body: body)
        if let type, let entry = registry.responseEntry(for: type) {
            var validation = validation
            if validation.acceptableContentTypes == nil { validation.acceptableContentTypes = entry.mediaTypes }
            guard sniffed else {
                return entry.serializer.serialize(
                    response: response, body: body, validation: validation, limits: limits)
            }
            // The member validates the sniffed type; the caller gets the response as it came.
            var retyped = response
            retyped.headerFields[.contentType] = type.description
            var result = entry.serializer.serialize(
                response: retyped, body: body, validation: validation, limits: limits)
            result.response = response
            if result.error?.response != nil { result.error?.response = response }
            result.sniffedContentType = type
            return result
        }
        var result = DecodedResponse(response: response, value: nil, error: nil, serializerName: nil)
        if body.isEmpty {
            if !validation.accepts(status: response.status.code) {
                result.error = SatchelError(.unacceptableStatusCode, response.status.unacceptableMessage)
                    .attaching(response: response, body: body)
            }
            return result
        }
        let message: String
        switch (declared, type) {
        case (nil, nil): message = "the response has a body but no Content-Type, and its format is not recognisable"
        case (_, let type?) where sniffed: message = "no registered serializer accepts the sniffed type \(type.essence)"
        case (let declared?, _): message = "no registered serializer accepts Content-Type \(declared.essence)"
        default: message = "no registered serializer accepts the body"
        }
        result.error = SatchelError(.unacceptableContentType, message).attaching(response: response, body: body)
        return result
    }

    /// The typed decoder of the member the response's Content-Type (or its sniffed format)
    /// picks, when the response passes `validation` (the member's own types unless it names
    /// others).
    public func typedDecoder(
        for response: HTTPResponse, body: [UInt8], validation: ResponseValidation
    ) -> (serializer: any TypedResponseSerializer, contentType: MediaType)? {
        guard validation.accepts(status: response.status.code) else { return nil }
        let declared: MediaType?
        do {
            declared = try response.contentType
        } catch {
            return nil
        }
        guard let type = effectiveType(declared: declared, body: body).type,
            let entry = registry.responseEntry(for: type), let typed = entry.serializer as? any TypedResponseSerializer,
            // The entry was chosen because its ranges accept `type`: only ranges the validation
            // names itself need checking.
            validation.acceptableContentTypes?.accepts(type) ?? true
        else { return nil }
        return (typed, type)
    }

    /// The reader of the member the response's Content-Type picks (a body without a usable
    /// Content-Type is decoded whole, after sniffing).
    public func makeIncrementalReader(
        for response: HTTPResponse, validation: ResponseValidation, limits: Limits
    ) -> (serializerName: String, reader: any IncrementalReader)? {
        guard let type = try? response.contentType, let member = registry.responseSerializer(for: type) else {
            return nil
        }
        return member.makeIncrementalReader(for: response, validation: validation, limits: limits)
    }

    /// The type to decode as: the declared one, or the sniffed one when the declared type is
    /// missing or `application/octet-stream` and the body's signature is recognised.
    func effectiveType(declared: MediaType?, body: [UInt8]) -> (type: MediaType?, sniffed: Bool) {
        let opaque = declared == nil || declared?.essence == "application/octet-stream"
        if opaque, let sniffed = registry.sniff(body) { return (sniffed, true) }
        return (declared, false)
    }
}
