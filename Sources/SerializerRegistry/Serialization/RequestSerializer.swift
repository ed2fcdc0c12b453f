// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// Turns parameters into a request (AFNetworking's `AFURLRequestSerialization`): into the query
/// string or into a body with its Content-Type.
public protocol RequestSerializer: Sendable {
    /// A short, stable name such as `"json"`.
    var name: String { get }

    /// The media type of the bodies this serializer writes.
    var contentType: MediaType { get }

    /// Headers set on every serialized request unless the request already has them
    /// (by default Accept-Language and User-Agent, see ``DefaultHeaders``).
    var headers: HTTPFields { get }

    /// Encodes `value` as a body in ``contentType``.
    /// - Throws: ``SatchelError`` (``SatchelError/Code/unencodableValue`` for values the format
    ///   cannot express).
    func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8]

    /// Returns `request` with `parameters` applied (in the query or as a body) and the default
    /// headers set.
    func serialize(_ parameters: Value?, into request: HTTPRequest) throws(SatchelError) -> SerializedRequest
}

/// A request head and its body.
public struct SerializedRequest: Sendable, Equatable {
    /// The request head, with Content-Type set when there is a body.
    public var request: HTTPRequest
    /// The body, or `nil` for none.
    public var body: [UInt8]?

    /// Creates a serialized request.
    public init(request: HTTPRequest, body: [UInt8]?) {
        self.request = request
        self.body = body
    }
}

extension RequestSerializer {
    /// Accept-Language and User-Agent.
    public var headers: HTTPFields { DefaultHeaders.standard }

    /// Puts the encoded parameters in the body, sets Content-Type (unless set) and the default
    /// headers. Serializers that put parameters in the URL for some methods override this.
    public func serialize(_ parameters: Value?, into request: HTTPRequest) throws(SatchelError) -> SerializedRequest {
        try serializeIntoBody(parameters, into: request)
    }

    /// The default placement: the encoded parameters as the body, Content-Type set unless the
    /// request has one, the default headers applied; `nil` parameters leave the body empty.
    public func serializeIntoBody(
        _ parameters: Value?, into request: HTTPRequest
    ) throws(SatchelError) -> SerializedRequest {
        var request = request
        applyDefaultHeaders(to: &request)
        guard let parameters else { return SerializedRequest(request: request, body: nil) }
        let body = try encodeBody(parameters)
        if !request.headerFields.contains(.contentType) {
            request.headerFields[.contentType] = contentType.description
        }
        return SerializedRequest(request: request, body: body)
    }

    /// The body for any `Encodable`, through ``ValueEncoder`` and ``encodeBody(_:)``.
    /// - Throws: the encoding errors of ``ValueEncoder`` and ``encodeBody(_:)``.
    public func encode<T: Encodable>(_ value: T) throws(SatchelError) -> [UInt8] {
        try encodeBody(ValueEncoder().encode(value))
    }

    /// Sets each of ``headers`` that `request` does not already have.
    public func applyDefaultHeaders(to request: inout HTTPRequest) {
        for field in headers where !request.headerFields.contains(field.name) {
            request.headerFields.append(field)
        }
    }
}
