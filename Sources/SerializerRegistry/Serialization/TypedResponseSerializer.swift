// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// A response serializer that also decodes a body straight into a `Decodable` type, with its
/// format's own typed decoder and no ``Value`` in between
/// (``ResponseSerializer/decode(_:response:body:validation:limits:)`` takes this path when the
/// response's ``ResponsePlan`` has a typed decoder: it passed validation).
public protocol TypedResponseSerializer: ResponseSerializer {
    /// Decodes `body` into `T`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - body: The body bytes.
    ///   - contentType: The response's (declared or sniffed) Content-Type, if it had one.
    ///   - limits: The bounds to obey.
    /// - Returns: The value, or `nil` when the body carries none (where
    ///   ``ResponseSerializer/decode(_:contentType:limits:)`` returns `nil`).
    /// - Throws: ``SatchelError``: the format's errors, and `typeMismatch`, `valueNotFound` or
    ///   `numberOutOfRange` with the key path where `T` did not fit.
    func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> T?
    /// Decodes into `T` a value this serializer (or its incremental reader) produced, with the
    /// mapping ``decode(_:from:contentType:limits:)`` applies to the bytes, so that a body
    /// decoded as it arrived gives the model the bytes would have. The default is
    /// ``ValueDecoder``'s, which is JSON's.
    /// - Throws: `typeMismatch`, `valueNotFound` or `numberOutOfRange` with the key path.
    func decode<T: Decodable>(_ type: T.Type, from value: Value, limits: Limits) throws(SatchelError) -> T
}

extension TypedResponseSerializer {
    /// ``ValueDecoder``'s mapping.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value, limits: Limits) throws(SatchelError) -> T {
        try ValueDecoder().decode(type, from: value)
    }
}

extension ResponseSerializer {
    /// Validates a response and decodes its body into `T`, as its plan says
    /// (``plan(for:body:validation:)``): straight from the bytes with the format's typed decoder
    /// when the plan has one, else through ``serialize(_:body:limits:)``'s ``Value``, which also
    /// reports every validation failure.
    ///
    /// - Throws: What ``serialize(_:body:limits:)`` reports (an unacceptable status or
    ///   Content-Type, the format's errors), ``SatchelError/Code/valueNotFound`` when the body
    ///   carries no value, and the key path where `T` did not fit. Errors carry the response and
    ///   its body.
    public func decode<T: Decodable>(
        _ type: T.Type = T.self, response: HTTPResponse, body: [UInt8], validation: ResponseValidation, limits: Limits
    ) throws(SatchelError) -> T {
        let plan = plan(for: response, body: body, validation: validation)
        guard let typed = plan.typedDecoder, let contentType = plan.contentType else {
            return try serialize(plan, body: body, limits: limits).decode(type)
        }
        return try typed.decodeValidated(type, response: response, body: body, contentType: contentType, limits: limits)
    }
}

extension TypedResponseSerializer {
    /// Decodes the body of a response that passed validation (its ``ResponsePlan`` chose this
    /// serializer and `contentType`) into `T`, its errors carrying the response.
    /// - Throws: The format's errors, ``SatchelError/Code/valueNotFound`` for no value.
    package func decodeValidated<T: Decodable>(
        _ type: T.Type, response: HTTPResponse, body: [UInt8], contentType: MediaType, limits: Limits
    ) throws(SatchelError) -> T {
        let value: T?
        do {
            value = try decode(type, from: body, contentType: contentType, limits: limits)
        } catch {
            throw error.attaching(response: response, body: body)
        }
        guard let value else {
            throw SatchelError(
                .valueNotFound, "the response (status \(response.status.code)) has no value to decode as \(T.self)"
            ).attaching(response: response, body: body)
        }
        return value
    }
}

extension Registry {
    /// Validates a response and decodes its body into `T`, with the serializer its Content-Type
    /// (or, without a usable one, its bytes) selects — straight from the bytes when that
    /// serializer is a ``TypedResponseSerializer``, else through its ``Value``.
    ///
    /// ```swift
    /// let user = try registry.decode(User.self, response: head, body: bytes)
    /// ```
    /// - Throws: What ``decode(response:body:)`` reports (an unacceptable status or Content-Type,
    ///   the format's errors), ``SatchelError/Code/valueNotFound`` when the body carries no value,
    ///   and the key path where `T` did not fit. Errors carry the response and its body.
    public func decode<T: Decodable>(
        _ type: T.Type = T.self, response: HTTPResponse, body: [UInt8]
    ) throws(SatchelError) -> T {
        try dispatchingSerializer.decode(type, response: response, body: body, validation: validation, limits: limits)
    }
}
