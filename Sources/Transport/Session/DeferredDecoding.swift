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
    /// The serializer that planned the response (the session's or the request's).
    let serializer: any ResponseSerializer
    /// Its plan: validated, with a typed decoder.
    let plan: ResponsePlan
    /// The plan's typed decoder, and the type it reads the body as.
    let typed: (serializer: any TypedResponseSerializer, contentType: MediaType)
    let limits: Limits
    let body: [UInt8]
    /// The URL the response came from, named in errors.
    let url: String
    private let outcome = Mutex<DecodedResponse?>(nil)

    init(
        serializer: any ResponseSerializer, plan: ResponsePlan,
        typed: (serializer: any TypedResponseSerializer, contentType: MediaType), limits: Limits, body: [UInt8],
        url: String
    ) {
        self.serializer = serializer
        self.plan = plan
        self.typed = typed
        self.limits = limits
        self.body = body
        self.url = url
    }

    /// The body decoded into a ``Value`` (decoded the first time, as the plan says).
    var decoded: DecodedResponse {
        outcome.withLock { outcome in
            if let outcome { return outcome }
            var decoded = serializer.serialize(plan, body: body, limits: limits)
            decoded.error = decoded.error?.located(
                at: url, contentType: plan.contentType, serializerName: decoded.serializerName ?? typed.serializer.name)
            outcome = decoded
            return decoded
        }
    }

    /// The body decoded into `T` with the plan's typed decoder, from the bytes.
    func decode<T: Decodable>(_ type: T.Type) throws(SatchelError) -> T {
        do {
            return try typed.serializer.decodeValidated(
                type, response: plan.response, body: body, contentType: typed.contentType, limits: limits)
        } catch {
            throw error.located(at: url, contentType: typed.contentType, serializerName: typed.serializer.name)
        }
    }
}
