// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// The outcome of decoding a response: the value, the error, or — after a status failure —
/// both (AFNetworking returns the decoded body together with the validation error).
public struct DecodedResponse: Sendable {
    /// The response head.
    public var response: HTTPResponse
    /// The decoded value; `nil` for no value or when decoding did not happen.
    public var value: Value?
    /// The validation or decoding error, if any.
    public var error: SatchelError?
    /// The name of the serializer that decoded the body, if one was chosen.
    public var serializerName: String?
    /// The type the body was decoded as when a dispatching serializer chose it by sniffing the
    /// bytes (the Content-Type was missing or `application/octet-stream`).
    public var sniffedContentType: MediaType?

    /// Creates an outcome.
    public init(response: HTTPResponse, value: Value?, error: SatchelError?, serializerName: String?) {
        self.response = response
        self.value = value
        self.error = error
        self.serializerName = serializerName
    }

    /// The value, or the error thrown (which carries the value in ``SatchelError/decodedValue``).
    public func get() throws(SatchelError) -> Value? {
        if let error { throw error }
        return value
    }

    /// The value as a `Decodable`.
    ///
    /// ```swift
    /// let user = try registry.decode(response: head, body: bytes).decode(User.self)
    /// ```
    /// - Throws: ``error`` when there is one; ``SatchelError/Code/valueNotFound`` for no value;
    ///   the ``ValueDecoder`` error (with its key path) when the value does not fit `T`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(SatchelError) -> T {
        guard let value = try get() else {
            throw SatchelError(
                .valueNotFound, "the response (status \(response.status.code)) has no value to decode as \(T.self)")
        }
        return try ValueDecoder().decode(type, from: value)
    }
}
