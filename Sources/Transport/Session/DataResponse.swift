import HTTPTypes
import SerializerRegistry

/// What a request produced: the response head, the body, the registry's ``DecodedResponse``, the
/// error, and what it cost (Alamofire's `DataResponse`).
///
/// A response with an unacceptable status still carries its decoded body next to the error
/// (AFNetworking's behaviour).
///
/// ```swift
/// let response = try await session.get("users/42")
/// let user = try response.decode(User.self)
/// if let type = response.sniffedContentType { print("no usable Content-Type; decoded as \(type)") }
/// ```
public struct DataResponse: Sendable {
    /// The head of the last request sent (after redirects and retries).
    public var request: HTTPRequest
    /// The URL the last request went to.
    public var url: String
    /// The response head, or `nil` when none arrived.
    public var response: HTTPResponse?
    /// The raw body when it was held in memory; empty when it was decoded as it arrived.
    public var body: [UInt8]
    /// The validated and decoded response, as the registry's serializers produced it; `nil` when
    /// no whole response arrived (a transport failure).
    public var decoded: DecodedResponse?
    /// What went wrong, if anything: a transport failure, or ``decoded``'s validation or
    /// decoding error.
    public var error: SatchelError?
    /// Timings, sizes, redirects and retries.
    public var metrics: TransferMetrics

    /// Creates a response.
    public init(
        request: HTTPRequest, url: String, response: HTTPResponse?, body: [UInt8], decoded: DecodedResponse?,
        error: SatchelError?, metrics: TransferMetrics
    ) {
        self.request = request
        self.url = url
        self.response = response
        self.body = body
        self.decoded = decoded
        self.error = error
        self.metrics = metrics
    }

    /// The decoded value; `nil` for no value or after a failure.
    public var value: Value? { decoded?.value }

    /// The name of the response serializer that decoded the body.
    public var serializerName: String? { decoded?.serializerName }

    /// The type the body was decoded as when it was chosen by sniffing the bytes (the
    /// Content-Type was missing or `application/octet-stream`).
    public var sniffedContentType: MediaType? { decoded?.sniffedContentType }

    /// The decoded value.
    /// - Throws: ``error``, when there is one.
    public func get() throws(SatchelError) -> Value? {
        if let error { throw error }
        return value
    }

    /// The decoded value as a `Decodable`.
    /// - Throws: ``error``, or ``SatchelError/Code/valueNotFound`` for no value, or the
    ///   decoding error.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        if let error { throw error }
        guard let decoded else {
            throw SatchelError(.valueNotFound, "the request to \(url) has no response to decode as \(T.self)")
        }
        return try decoded.decode(type)
    }
}
