// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Writes parameters as a JSON body (AFNetworking's `AFJSONRequestSerializer`).
///
/// For GET, HEAD and DELETE the parameters go into the query string exactly as the form
/// serializer writes them; for other methods the body is the JSON text and Content-Type is
/// `application/json` unless the request already has one.
public struct JSONRequestSerializer: RequestSerializer {
    /// `"json"`.
    public var name: String { "json" }
    /// `application/json`.
    public var contentType: MediaType { .json }
    /// Headers set on every serialized request unless it already has them.
    public var headers: HTTPFields
    /// Pretty printing, sorted keys, escaping of `/`.
    public var writingOptions: JSONWriter.Options
    /// Methods whose parameters go into the query string (AFNetworking's
    /// `HTTPMethodsEncodingParametersInURI`).
    public var methodsEncodingParametersInURI: Set<HTTPRequest.Method>

    /// Creates a JSON serializer.
    public init(
        writingOptions: JSONWriter.Options = JSONWriter.Options(),
        methodsEncodingParametersInURI: Set<HTTPRequest.Method> = .encodingParametersInURI,
        headers: HTTPFields = DefaultHeaders.standard
    ) {
        self.writingOptions = writingOptions
        self.methodsEncodingParametersInURI = methodsEncodingParametersInURI
        self.headers = headers
    }

    /// The JSON text of `value`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for NaN or an infinity, with its key path.
    public func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        try JSONWriter(options: writingOptions).write(value)
    }

    /// Returns `request` with the parameters in its query (GET, HEAD, DELETE) or as a JSON body.
    public func serialize(_ parameters: Value?, into request: HTTPRequest) throws(SatchelError) -> SerializedRequest {
        try serialize(parameters, into: request, queryMethods: methodsEncodingParametersInURI)
    }
}
