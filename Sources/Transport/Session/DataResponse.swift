// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// What a request produced: the response head, the body, the registry's ``DecodedResponse``, the
/// error, and what it cost (Alamofire's `DataResponse`).
///
/// A response with an unacceptable status still carries its decoded body next to the error
/// (AFNetworking's behaviour). A response that passes validation and whose format has a typed
/// decoder (JSON, property lists, XML, forms, multipart) is decoded when it is first asked for,
/// on the asking task: ``decode(_:)`` reads the bytes straight into the model and never builds a
/// ``Value``; ``value``, ``decoded``, ``get()`` and ``error`` decode it into a ``Value`` once.
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
    /// The response head (a request that got none ends in an error instead of a `DataResponse`).
    public var response: HTTPResponse
    /// The raw body, as it arrived (decompressed).
    public var body: [UInt8]
    /// Timings, sizes, redirects and retries.
    public var metrics: TransferMetrics
    /// Which of its states the response is in.
    var state: State

    /// What is known of a response's decoding.
    enum State: Sendable {
        /// Nothing was decoded: the transfer failed after the head, or a response made without a
        /// decoding.
        case undecoded(error: SatchelError?)
        /// Decoded into a ``Value``; `error` is the response's error (the decoding's unless set).
        case decoded(DecodedResponse, error: SatchelError?)
        /// Validated; decoded when first asked for.
        case deferred(DeferredDecoding)
    }

    /// Creates a response.
    public init(
        request: HTTPRequest, url: String, response: HTTPResponse, body: [UInt8], decoded: DecodedResponse?,
        error: SatchelError?, metrics: TransferMetrics
    ) {
        self.init(
            request: request, url: url, response: response, body: body, metrics: metrics,
            state: decoded.map { .decoded($0, error: error) } ?? .undecoded(error: error))
    }

    init(
        request: HTTPRequest, url: String, response: HTTPResponse, body: [UInt8], metrics: TransferMetrics,
        state: State
    ) {
        self.request = request
        self.url = url
        self.response = response
        self.body = body
        self.metrics = metrics
        self.state = state
    }

    /// The validated and decoded response, as the registry's serializers produced it; `nil` when
    /// the body did not arrive whole (the transfer failed after the head). Reading it decodes a
    /// deferred body.
    public var decoded: DecodedResponse? {
        get {
            switch state {
            case .undecoded: nil
            case let .decoded(decoded, _): decoded
            case let .deferred(deferred): deferred.decoded
            }
        }
        set {
            guard let newValue else {
                state = .undecoded(error: error)
                return
            }
            // An error set before (or a transport failure) stays the response's error.
            switch state {
            case let .decoded(_, error): state = .decoded(newValue, error: error)
            case let .undecoded(error?): state = .decoded(newValue, error: error)
            case .undecoded, .deferred: state = .decoded(newValue, error: newValue.error)
            }
        }
    }

    /// What went wrong, if anything: a transfer that failed after the head, or ``decoded``'s
    /// validation or decoding error (reading it decodes a deferred body).
    public var error: SatchelError? {
        get {
            switch state {
            case let .undecoded(error), let .decoded(_, error): error
            case let .deferred(deferred): deferred.decoded.error
            }
        }
        set {
            switch state {
            case .undecoded: state = .undecoded(error: newValue)
            case let .decoded(decoded, _): state = .decoded(decoded, error: newValue)
            case let .deferred(deferred): state = .decoded(deferred.decoded, error: newValue)
            }
        }
    }

    /// The failure known without decoding a deferred body: what ``Session/send(_:)`` throws.
    var failure: SatchelError? {
        if case .deferred = state { return nil }
        return error
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
    /// has one (no ``Value`` is built), else from the decoded ``value``.
    ///
    /// - Throws: ``error``, or ``SatchelError/Code/valueNotFound`` for no value, or the
    ///   decoding error with its key path (and, for a malformed body, the byte offset), naming
    ///   the URL, the Content-Type and the serializer that read the body.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(SatchelError) -> T {
        switch state {
        case let .undecoded(error):
            throw error ?? SatchelError(.valueNotFound, "\(url): there is no response to decode as \(T.self)")
        case let .decoded(_, error?):
            throw error
        case let .decoded(decoded, nil):
            do {
                return try decoded.decode(type)
            } catch {
                throw error.located(
                    at: url, contentType: decoded.sniffedContentType ?? (try? decoded.response.contentType),
                    serializerName: decoded.serializerName)
            }
        case let .deferred(deferred):
            return try deferred.decode(type)
        }
    }
}

extension SatchelError {
    /// This error of the response from `url`, its message saying where: the URL first (a
    /// transport error's message starts with it already), and for an error in the body's
    /// decoding, the Content-Type and the serializer that read it.
    func located(at url: String, contentType: MediaType?, serializerName: String?) -> SatchelError {
        var error = self
        if !message.hasPrefix(url) { error.message = "\(url): \(message)" }
        if Self.decodingCodes.contains(code), let serializerName {
            let type = contentType.map { "Content-Type \($0.essence)" } ?? "no Content-Type"
            error.message += " (the body, \(type), was read by the \(serializerName) serializer)"
        }
        return error
    }

    /// The codes of errors in a body's decoding, which name the Content-Type and serializer.
    private static let decodingCodes: Set<Code> = [
        .syntaxError, .truncatedInput, .typeMismatch, .valueNotFound, .numberOutOfRange, .invalidEncoding,
    ]
}
