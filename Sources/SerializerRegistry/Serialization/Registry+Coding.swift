// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

extension Registry {
    /// Validates a response and decodes its body with the serializer chosen by its Content-Type,
    /// or by its bytes when the Content-Type is missing or `application/octet-stream`
    /// (``DispatchingResponseSerializer``, with this registry's ``validation`` and ``limits``).
    ///
    /// Semantics are AFNetworking's (see ``ResponseSerializer/validateAndDecode(_:body:limits:)``):
    /// a non-empty body no serializer accepts fails without decoding; a bad status still decodes
    /// and returns value and error together; an empty body that no serializer is chosen for is no
    /// value. The chosen serializer validates against the media types it was registered for,
    /// unless ``validation`` names acceptable content types.
    public func decode(response: HTTPResponse, body: [UInt8]) -> DecodedResponse {
        dispatchingSerializer.serialize(response: response, body: body, validation: validation, limits: limits)
    }

    /// This registry as one response serializer, the default of a transport session.
    public var dispatchingSerializer: DispatchingResponseSerializer {
        DispatchingResponseSerializer(registry: self)
    }

    /// Decodes a body as if it were a successful response with the given Content-Type (sniffing
    /// the format from the bytes when it is `application/octet-stream`, as
    /// ``DispatchingResponseSerializer`` does).
    ///
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when no serializer accepts the
    ///   type, or the serializer's decoding error.
    public func decode(_ body: [UInt8], contentType: MediaType) throws(SatchelError) -> Value? {
        try dispatchingSerializer.decode(body, contentType: contentType, limits: limits)
    }

    /// Encodes `value` as a body of `mediaType` with the registered request serializer.
    ///
    /// - Returns: The body and the Content-Type to send with it.
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when no request serializer writes
    ///   that type, or the serializer's encoding error.
    public func encode(
        _ value: Value, as mediaType: MediaType
    ) throws(SatchelError) -> (body: [UInt8], contentType: MediaType) {
        let serializer = try requestSerializerOrThrow(for: mediaType)
        return (try serializer.encodeBody(value), serializer.contentType)
    }

    /// Applies `parameters` to `request` with the request serializer registered for `mediaType`
    /// (into the query or the body, as that serializer decides).
    public func serialize(
        _ parameters: Value?, into request: HTTPRequest, as mediaType: MediaType
    ) throws(SatchelError) -> SerializedRequest {
        try requestSerializerOrThrow(for: mediaType).serialize(parameters, into: request)
    }

    private func requestSerializerOrThrow(for mediaType: MediaType) throws(SatchelError) -> any RequestSerializer {
        guard let serializer = requestSerializer(for: mediaType) else {
            throw SatchelError(.unacceptableContentType, "no registered request serializer writes \(mediaType.essence)")
        }
        return serializer
    }
}
