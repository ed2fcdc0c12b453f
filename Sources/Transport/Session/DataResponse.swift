import HTTPTypes
import SerializerRegistry

/// What a request produced: the response head, the body and its decoded value, the error,
/// and what it cost (Alamofire's `DataResponse`).
///
/// A response with an unacceptable status still carries its decoded body next to the error
/// (AFNetworking's behaviour).
public struct DataResponse: Sendable {
    /// The head of the last request sent (after redirects and retries).
    public var request: HTTPRequest
    /// The URL the last request went to.
    public var url: String
    /// The response head, or `nil` when none arrived.
    public var response: HTTPResponse?
    /// The raw body when it was held in memory; empty when it was decoded as it arrived.
    public var body: [UInt8]
    /// The decoded value; `nil` for no value or after a failure.
    public var value: Value?
    /// What went wrong, if anything.
    public var error: SatchelError?
    /// The response serializer that decoded the body.
    public var serializerName: String?
    /// Timings, sizes, redirects and retries.
    public var metrics: TransferMetrics

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
        guard let value = try get() else {
            throw SatchelError(.valueNotFound, "the response to \(url) has no value to decode as \(T.self)")
        }
        return try ValueDecoder().decode(type, from: value)
    }
}
