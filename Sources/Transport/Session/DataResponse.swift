// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// What a request produced: the response head, the body, the registry's ``DecodedResponse``, the
/// error, and what it cost (Alamofire's `DataResponse`).
///
/// A response with an unacceptable status still carries its decoded body next to the error
/// (AFNetworking's behaviour). A response that passes validation and whose format has a typed
/// decoder (JSON, property lists, XML, forms, multipart) is decoded when it is first asked for:
/// ``decode(_:)`` reads the bytes straight into the model and never builds a ``Value``;
/// ``value``, ``decoded``, ``get()`` and ``error`` decode it into a ``Value`` once.
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
    /// Timings, sizes, redirects and retries.
    public var metrics: TransferMetrics

    /// The transport or validation failure, known when the response arrived.
    var failure: SatchelError?
    /// Whether ``error`` was set, which makes ``failure`` the whole answer.
    private var errorIsSet = false
    private var storedDecoded: DecodedResponse?
    /// The body's decoding, when it waits to be asked for.
    var deferred: DeferredDecoding?
    /// The typed serializer whose reader decoded the body as it arrived, and its limits: it
    /// maps ``value`` into a model as it would the bytes.
    var valueMapping: (serializer: any TypedResponseSerializer, limits: Limits)?

    /// Creates a response.
    public init(
        request: HTTPRequest, url: String, response: HTTPResponse?, body: [UInt8], decoded: DecodedResponse?,
        error: SatchelError?, metrics: TransferMetrics
    ) {
        self.request = request
        self.url = url
        self.response = response
        self.body = body
        self.storedDecoded = decoded
        self.failure = error
        self.errorIsSet = true
        self.metrics = metrics
    }

    /// A validated response whose body `deferred` decodes when asked.
    init(request: HTTPRequest, url: String, metrics: TransferMetrics, deferred: DeferredDecoding) {
        self.request = request
        self.url = url
        self.response = deferred.response
        self.body = deferred.body
        self.metrics = metrics
        self.deferred = deferred
    }

    /// The validated and decoded response, as the registry's serializers produced it; `nil` when
    /// no whole response arrived (a transport failure). Reading it decodes a deferred body.
    public var decoded: DecodedResponse? {
        get { deferred?.decoded ?? storedDecoded }
        set {
            storedDecoded = newValue
            deferred = nil
        }
    }

    /// What went wrong, if anything: a transport failure, or ``decoded``'s validation or
    /// decoding error (reading it decodes a deferred body).
    public var error: SatchelError? {
        get { errorIsSet ? failure : failure ?? decoded?.error }
        set {
            failure = newValue
            errorIsSet = true
        }
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

    /// The body as a `Decodable`, straight from its bytes with the format's typed decoder when it
    /// has one (no ``Value`` is built), else from the decoded ``value`` — with that format's
    /// mapping when the body was decoded as it arrived, so the model is the same.
    ///
    /// - Throws: ``error``, or ``SatchelError/Code/valueNotFound`` for no value, or the
    ///   decoding error with its key path (and, for a malformed body, the byte offset).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        if let failure { throw failure }
        if let deferred, !errorIsSet { return try deferred.decode(type) }
        if let error { throw error }
        guard let decoded else {
            throw SatchelError(.valueNotFound, "the request to \(url) has no response to decode as \(T.self)")
        }
        if let (serializer, limits) = valueMapping, let value = decoded.value {
            do {
                return try serializer.decode(type, from: value, limits: limits)
            } catch {
                throw SatchelError.wrap(error).attaching(response: decoded.response, body: body)
            }
        }
        return try decoded.decode(type)
    }
}
