// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Everything about one request a ``Session`` sends.
///
/// `parameters` go where the request serializer puts them (the query for GET, HEAD and
/// DELETE, the body otherwise); with an explicit ``body`` they go in the query string.
public struct SessionRequest: Sendable {
    /// The method.
    public var method: HTTPRequest.Method
    /// An absolute URL, or a reference resolved against the session's base URL (RFC 3986).
    public var url: String
    /// Parameters for the request serializer.
    public var parameters: Value?
    /// Headers; they win over the session's default headers.
    public var headers: HTTPFields
    /// An explicit body; ``RequestBody/none`` lets the request serializer build one.
    public var body: RequestBody
    /// The request serializer; `nil` for the session's.
    public var requestSerializer: (any RequestSerializer)?
    /// The response serializer; `nil` for the session's.
    public var responseSerializer: (any ResponseSerializer)?
    /// The acceptable status codes (and content types); `nil` for the registry's.
    public var validation: ResponseValidation?
    /// Timeouts for this request; `nil` for the session's.
    public var timeouts: TransferTimeouts?
    /// Called with the transfer's progress, at most once per the session's progress interval
    /// and once at the end, on the thread driving the transfer (see "Who drives libcurl" in Sessions).
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Whether this request sends the session's cookies for its URL and keeps the cookies its
    /// response sets (AFNetworking's `HTTPShouldHandleCookies`); `nil` for the session's
    /// ``SessionConfiguration/handlesCookies`` (on by default).
    public var handlesCookies: Bool?
    /// The credential for this request's origin (never sent to another after a redirect);
    /// `nil` for the session's ``SessionConfiguration/credentials``.
    public var credential: Credential?
    /// Interceptors for this request, run after the session's (``RequestInterceptor``).
    public var interceptors: [any RequestInterceptor] = []
    /// The most bytes per second this request sends and receives; `nil` for the session's.
    public var rateLimit: RateLimit?
    /// How this request uses the session's ``HTTPCache`` (AFNetworking's `cachePolicy`);
    /// ``CachePolicy/useProtocol``, RFC 9111's rules, by default.
    public var cachePolicy = CachePolicy.useProtocol

    /// Creates a request.
    public init(
        _ method: HTTPRequest.Method, _ url: String, parameters: Value? = nil, headers: HTTPFields = [:],
        body: RequestBody = .none
    ) {
        self.method = method
        self.url = url
        self.parameters = parameters
        self.headers = headers
        self.body = body
    }

    /// Sets an `Authorization: Basic` header for `username` and `password` (RFC 7617, UTF-8).
    public mutating func authenticate(username: String, password: String) {
        headers.setBasicAuthorization(username: username, password: password)
    }
}
