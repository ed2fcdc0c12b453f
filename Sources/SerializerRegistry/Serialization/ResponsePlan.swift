// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// The decisions about one response, each made once and then passed along: whether its status is
/// acceptable, its Content-Type parsed, the type its body is read as (sniffed when the
/// Content-Type is missing or `application/octet-stream`), the serializer that reads it, and
/// that serializer's typed decoder when the response passed validation.
///
/// ``ResponseSerializer/plan(for:body:validation:)`` makes it (the dispatching serializer picks
/// the member there); ``ResponseSerializer/serialize(_:body:limits:)`` and a session's
/// `decode(_:)` follow it, so no Content-Type is parsed twice and no header is rewritten.
///
/// ```swift
/// let plan = registry.dispatchingSerializer.plan(for: head, body: bytes, validation: registry.validation)
/// if let typed = plan.typedDecoder { print("read by \(typed.name) as \(plan.contentType!)") }
/// ```
public struct ResponsePlan: Sendable {
    /// The response head.
    public let response: HTTPResponse
    /// The validation the response is judged by.
    public let validation: ResponseValidation
    /// The serializer that reads the body; `nil` when none reads its type.
    public let serializer: (any ResponseSerializer)?
    /// The Content-Type as declared: `nil` when missing, or the
    /// ``SatchelError/Code/invalidMediaType`` error when it is malformed.
    public let declaredContentType: Result<MediaType?, SatchelError>
    /// The type the body is read as when sniffing its bytes chose it.
    public let sniffedContentType: MediaType?
    /// Whether the status is acceptable.
    public let acceptsStatus: Bool
    /// Whether ``contentType`` is acceptable: to the validation's content types when it names
    /// some, else to the serializer's.
    public let acceptsContentType: Bool

    /// Judges `response` for `serializer`: parses its Content-Type (unless `declaredContentType`
    /// is given) and checks its status and type against `validation`.
    ///
    /// - Parameters:
    ///   - response: The response head.
    ///   - validation: The acceptable statuses, and content types when it names some
    ///     (otherwise `serializer`'s own are).
    ///   - serializer: The serializer that reads the body, if any.
    ///   - sniffedContentType: The type sniffing chose, when it did.
    ///   - declaredContentType: The Content-Type already parsed, to parse it only once.
    public init(
        response: HTTPResponse, validation: ResponseValidation, serializer: (any ResponseSerializer)?,
        sniffedContentType: MediaType? = nil, declaredContentType: Result<MediaType?, SatchelError>? = nil
    ) {
        self.response = response
        self.validation = validation
        self.serializer = serializer
        self.sniffedContentType = sniffedContentType
        let declared = declaredContentType ?? Result { () throws(SatchelError) in try response.contentType }
        self.declaredContentType = declared
        acceptsStatus = validation.accepts(status: response.status.code)
        let type = sniffedContentType ?? (try? declared.get()) ?? nil
        let acceptable = validation.acceptableContentTypes ?? serializer?.acceptableContentTypes
        acceptsContentType = type.map { acceptable?.accepts($0) ?? false } ?? false
    }

    /// The same response judged for another serializer: the same Content-Type, sniffed type and
    /// validation (a compound serializer plans each member it tries this way).
    public func planning(_ serializer: any ResponseSerializer) -> ResponsePlan {
        ResponsePlan(
            response: response, validation: validation, serializer: serializer,
            sniffedContentType: sniffedContentType, declaredContentType: declaredContentType)
    }

    /// The type the body is read as: the sniffed one, else the declared one.
    public var contentType: MediaType? {
        sniffedContentType ?? (try? declaredContentType.get()) ?? nil
    }

    /// The acceptable content types: the validation's when it names some, else the serializer's.
    public var acceptableContentTypes: MediaRangeList? {
        validation.acceptableContentTypes ?? serializer?.acceptableContentTypes
    }

    /// The typed decoder that reads the body straight into a `Decodable`: the serializer, when
    /// it is a ``TypedResponseSerializer`` and the response passed validation (status and
    /// Content-Type); `nil` otherwise, when the ``Value`` path reports why.
    public var typedDecoder: (any TypedResponseSerializer)? {
        guard acceptsStatus, acceptsContentType else { return nil }
        return serializer as? any TypedResponseSerializer
    }
}
