// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Writes parameters as a property-list body (AFNetworking's `AFPropertyListRequestSerializer`).
///
/// For GET, HEAD and DELETE the parameters go into the query string exactly as the form
/// serializer writes them; for other methods the body is the plist in ``format`` (XML by
/// default, as AFNetworking) and Content-Type is `application/x-plist` unless the request
/// already has one.
public struct PropertyListRequestSerializer: RequestSerializer {
    /// `"plist"`.
    public var name: String { "plist" }
    /// `application/x-plist`.
    public var contentType: MediaType { Self.mediaType }
    /// Headers set on every serialized request unless it already has them.
    public var headers: HTTPFields
    /// The format of the body: XML (the default) or binary.
    public var format: PropertyListFormat
    /// Methods whose parameters go into the query string.
    public var methodsEncodingParametersInURI: Set<HTTPRequest.Method>

    /// `application/x-plist`, the type AFNetworking sends and accepts for both formats.
    public static let mediaType = MediaType(type: "application", subtype: "x-plist")

    /// Creates a property-list serializer.
    public init(
        format: PropertyListFormat = .xml,
        methodsEncodingParametersInURI: Set<HTTPRequest.Method> = .encodingParametersInURI,
        headers: HTTPFields = DefaultHeaders.standard
    ) {
        self.format = format
        self.methodsEncodingParametersInURI = methodsEncodingParametersInURI
        self.headers = headers
    }

    /// The plist of `value` in ``format``.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for null and payloads other than
    ///   ``PropertyListUID``, with the key path.
    public func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        try PropertyListWriter(format: format).write(value)
    }

    /// Returns `request` with the parameters in its query (GET, HEAD, DELETE) or as a plist body.
    public func serialize(_ parameters: Value?, into request: HTTPRequest) throws(SatchelError) -> SerializedRequest {
        try serialize(parameters, into: request, queryMethods: methodsEncodingParametersInURI)
    }
}
