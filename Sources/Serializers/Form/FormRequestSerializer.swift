// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Writes parameters as `application/x-www-form-urlencoded` (AFNetworking's
/// `AFHTTPRequestSerializer`): into the query string for GET, HEAD and DELETE, into the body for
/// other methods.
///
/// ```swift
/// let serializer = FormRequestSerializer()
/// let request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/search")
/// let serialized = try serializer.serialize(["q": "swift", "page": 2], into: request)
/// // serialized.request.path == "/search?page=2&q=swift"
/// ```
///
/// See ``FormWriter`` for how values are written and ``Options`` for what can be changed.
public struct FormRequestSerializer: QueryStringSerializer {
    /// Where the encoded parameters go.
    public enum Placement: Sendable, Hashable {
        /// The query string for methods in ``Options/methodsEncodingParametersInURI``, the body
        /// otherwise.
        case automatic
        /// Always the query string.
        case query
        /// Always the body.
        case body
    }

    /// `"form"`.
    public var name: String { "form" }

    /// `application/x-www-form-urlencoded`, with `charset=` naming ``FormWriter/Options/charset``
    /// when it is not UTF-8.
    public var contentType: MediaType {
        let charset = options.encoding.effectiveCharset
        return charset == .utf8
            ? .formURLEncoded : MediaType.formURLEncoded.setting(parameter: "charset", to: charset.rawValue)
    }

    /// Headers set on every serialized request unless it already has them; Accept-Language and
    /// User-Agent by default.
    public var headers: HTTPFields

    /// How parameters are written and where they go.
    public var options: Options

    /// Creates a form serializer.
    ///
    /// - Parameters:
    ///   - options: How parameters are written and where they go; AFNetworking's defaults.
    ///   - headers: Headers set on every request that lacks them; ``DefaultHeaders/standard``.
    public init(options: Options = Options(), headers: HTTPFields = DefaultHeaders.standard) {
        self.options = options
        self.headers = headers
    }

    /// Encodes `value` as a form body.
    ///
    /// - Parameter value: An object, or ``Value/null`` (an empty body). With
    ///   ``Options/queryStringSerializer`` set, any value that closure accepts.
    /// - Returns: The ASCII bytes of ``queryString(from:)-swift.method``.
    /// - Throws: As ``queryString(from:)-swift.method``.
    public func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        if options.queryStringSerializer == nil {
            return try FormWriter(options: options.encoding).write(value)
        }
        return Array(try queryString(from: value).utf8)
    }

    /// Returns `request` with `parameters` in its query or body, and the default headers set.
    ///
    /// With query placement, the encoded parameters are appended to the path after `?` (or `&`
    /// when the path already has a query); nothing is appended when they encode to nothing. With
    /// body placement, the body is the encoded parameters (possibly empty) and Content-Type is
    /// set to `application/x-www-form-urlencoded` unless the request already has one.
    ///
    /// - Parameters:
    ///   - parameters: An object; `nil` or ``Value/null`` for no parameters, which leaves query
    ///     and body untouched.
    ///   - request: The request head to complete.
    /// - Returns: The completed request and its body (`nil` for query placement or no parameters).
    /// - Throws: As ``queryString(from:)-swift.method``; ``SatchelError/Code/invalidArgument`` for
    ///   query placement on a request without a path.
    public func serialize(_ parameters: Value?, into request: HTTPRequest) throws(SatchelError) -> SerializedRequest {
        var request = request
        applyDefaultHeaders(to: &request)
        guard let parameters, !parameters.isNull else {
            return SerializedRequest(request: request, body: nil)
        }
        let query = try queryString(from: parameters)
        if encodesParametersInQuery(for: request.method) {
            if !query.isEmpty {
                guard let path = request.path else {
                    throw SatchelError(
                        .invalidArgument, "a \(request.method) request without a path cannot carry a query string")
                }
                request.path = Self.appending(query: query, to: path)
            }
            return SerializedRequest(request: request, body: nil)
        }
        if !request.headerFields.contains(.contentType) {
            request.headerFields[.contentType] = contentType.description
        }
        return SerializedRequest(request: request, body: Array(query.utf8))
    }

    /// Writes `parameters` as an escaped query string with these options, or with
    /// ``Options/queryStringSerializer`` when it is set.
    ///
    /// - Parameter parameters: An object, or ``Value/null`` for no parameters.
    /// - Returns: The query string without a leading `?`; empty for no parameters.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when `parameters` is neither an object nor
    ///   null; ``SatchelError/Code/unencodableValue`` with the key path for a payload or a
    ///   non-finite double; ``SatchelError/Code/limitExceeded`` (`maxDepth`) for deep nesting. An
    ///   error thrown by ``Options/queryStringSerializer`` is passed on when it is a
    ///   ``SatchelError`` and otherwise wrapped as its underlying error.
    public func queryString(from parameters: Value) throws(SatchelError) -> String {
        guard let serializer = options.queryStringSerializer else {
            return try FormWriter(options: options.encoding).queryString(from: parameters)
        }
        do {
            return try serializer(parameters)
        } catch let error as SatchelError {
            throw error
        } catch {
            throw SatchelError(.unencodableValue, "the custom query string serializer failed", underlying: error)
        }
    }

    /// Writes `parameters` as an escaped query string with AFNetworking's defaults, for other
    /// serializers that put parameters in the URL (JSON for GET, for example).
    ///
    /// - Parameter parameters: An object, or ``Value/null`` for no parameters.
    /// - Returns: The query string without a leading `?`; empty for no parameters.
    /// - Throws: As ``FormWriter/pairs(from:)``.
    public static func queryString(from parameters: Value) throws(SatchelError) -> String {
        try FormWriter().queryString(from: parameters)
    }

    /// Whether parameters of a `method` request go into the query string under these options.
    public func encodesParametersInQuery(for method: HTTPRequest.Method) -> Bool {
        switch options.placement {
        case .automatic: options.methodsEncodingParametersInURI.contains(method)
        case .query: true
        case .body: false
        }
    }

    /// Appends an encoded query to a request path, as AFNetworking does for GET (see
    /// ``URLQuery/appending(_:to:)``): `/s?x=1` and `a=2` give `/s?x=1&a=2`.
    public static func appending(query: String, to path: String) -> String {
        URLQuery.appending(query, to: path)
    }
}
