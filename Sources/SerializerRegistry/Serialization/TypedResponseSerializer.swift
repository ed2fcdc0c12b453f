import HTTPTypes

/// A response serializer that also decodes a body straight into a `Decodable` type, with its
/// format's own typed decoder and no ``Value`` in between (``Registry/decode(_:response:body:)``
/// takes this path when the serializer the Content-Type selects offers it).
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
    func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits) throws -> T?
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
    public func decode<T: Decodable>(_ type: T.Type = T.self, response: HTTPResponse, body: [UInt8]) throws -> T {
        let dispatching = dispatchingSerializer
        if validation.accepts(status: response.status.code), let declared = try? response.contentType {
            let (chosen, _) = dispatching.effectiveType(declared: declared, body: body)
            if let chosen, let entry = responseEntry(for: chosen),
                let typed = entry.serializer as? any TypedResponseSerializer,
                (validation.acceptableContentTypes ?? entry.mediaTypes).accepts(chosen)
            {
                do {
                    if let value = try typed.decode(type, from: body, contentType: chosen, limits: limits) {
                        return value
                    }
                } catch {
                    throw SatchelError.wrap(error).attaching(response: response, body: body)
                }
                throw SatchelError(
                    .valueNotFound, "the response (status \(response.status.code)) has no value to decode as \(T.self)"
                ).attaching(response: response, body: body)
            }
        }
        // Every other case (a status or Content-Type to refuse, sniffing, a serializer without a
        // typed decoder) takes the Value path, which reports it.
        return try decode(response: response, body: body).decode(type)
    }
}
