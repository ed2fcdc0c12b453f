// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Synchronization

/// A validated response whose body is decoded only when asked, on the asking task: into a
/// `Decodable` straight from the bytes (no ``Value`` is built), or into its ``DecodedResponse``
/// once, on first use. Its errors name the URL, the Content-Type and the serializer.
///
/// Shared by the copies of a ``DataResponse``; the outcome is computed under a lock, so
/// concurrent readers wait for the first and all see one value.
final class DeferredDecoding: Sendable {
    let serializer: any ResponseSerializer
    /// The typed decoder and Content-Type the serializer chose for this response.
    let typed: any TypedResponseSerializer
    let contentType: MediaType
    let validation: ResponseValidation
    let limits: Limits
    let response: HTTPResponse
    let body: [UInt8]
    /// The URL the response came from, named in errors.
    let url: String
    private let outcome = Mutex<DecodedResponse?>(nil)

    init(
        serializer: any ResponseSerializer, typed: (serializer: any TypedResponseSerializer, contentType: MediaType),
        validation: ResponseValidation, limits: Limits, response: HTTPResponse, body: [UInt8], url: String
    ) {
        self.url = url
        self.serializer = serializer
        self.typed = typed.serializer
        self.contentType = typed.contentType
        self.validation = validation
        self.limits = limits
        self.response = response
        self.body = body
    }

    /// The body decoded into a ``Value`` (validated and decoded the first time).
    var decoded: DecodedResponse {
        outcome.withLock { outcome in
            if let outcome { return outcome }
            var decoded = serializer.serialize(response: response, body: body, validation: validation, limits: limits)
            decoded.error = decoded.error?.located(
                at: url, contentType: contentType, serializerName: decoded.serializerName ?? typed.name)
            outcome = decoded
            return decoded
        }
    }

    /// The body decoded into `T` with the format's typed decoder, from the bytes.
    func decode<T: Decodable>(_ type: T.Type) throws(SatchelError) -> T {
        do {
            return try typed.decodeValidated(
                type, response: response, body: body, contentType: contentType, limits: limits)
        } catch {
            throw SatchelError.wrap(error).located(at: url, contentType: contentType, serializerName: typed.name)
        }
    }
}
