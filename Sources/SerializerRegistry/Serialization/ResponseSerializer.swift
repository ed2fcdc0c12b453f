// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// Decodes response bodies of some media types into ``Value``s
/// (AFNetworking's `AFURLResponseSerialization`).
///
/// A serializer decodes; what a response is decoded as is decided once, in its
/// ``ResponsePlan`` (``plan(for:body:validation:)``: the status and Content-Type judged by a
/// ``ResponseValidation``, the serializer chosen, its typed decoder), and
/// ``serialize(_:body:limits:)`` validates and decodes as the plan says
/// (``ResponseSerializer/validateAndDecode(_:body:limits:)`` around
/// ``decode(_:contentType:limits:)`` by default).
public protocol ResponseSerializer: Sendable {
    /// A short, stable name such as `"json"`, reported with every decoded response.
    var name: String { get }

    /// The media types this serializer accepts; ranges with `q=0` exclude a type.
    var acceptableContentTypes: MediaRangeList { get }

    /// Decodes a whole body.
    ///
    /// - Parameters:
    ///   - body: The body bytes.
    ///   - contentType: The response's parsed Content-Type, if it had one.
    ///   - limits: The bounds to obey.
    /// - Returns: The value, or `nil` when the body carries no value (such as an empty JSON body).
    /// - Throws: ``SatchelError`` saying what is wrong and where.
    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value?

    /// Decodes a whole body lent as raw memory (a C caller's buffer), without copying it when
    /// the format reads raw memory (JSON does). The default copies it into an array for
    /// ``decode(_:contentType:limits:)``.
    ///
    /// - Parameters:
    ///   - buffer: The body bytes, valid for the duration of the call.
    ///   - contentType: The response's parsed Content-Type, if it had one.
    ///   - limits: The bounds to obey.
    /// - Returns: The value, or `nil` when the body carries no value.
    /// - Throws: ``SatchelError`` saying what is wrong and where.
    func decode(buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value?

    /// Returns a decoder fed the body in chunks as they arrive, or `nil` when this serializer
    /// only decodes whole bodies.
    func makeIncrementalReader(contentType: MediaType?, limits: Limits) -> (any IncrementalReader)?

    /// A reader for the body of `response` as it arrives, with the name of the serializer that
    /// reads it, when the response passes `validation` (status, and Content-Type against
    /// ``acceptableContentTypes`` unless the validation names its own) and the serializer
    /// offers one; `nil` to decode the whole body once it is there. The default follows
    /// ``plan(for:body:validation:)`` (with no body to sniff) and asks the planned serializer's
    /// ``makeIncrementalReader(contentType:limits:)``.
    func makeIncrementalReader(
        for response: HTTPResponse, validation: ResponseValidation, limits: Limits
    ) -> (serializerName: String, reader: any IncrementalReader)?

    /// The media type of a body that starts with `prefix`, when its bytes show this serializer's
    /// format; `nil` otherwise (the default). Asked when a response has no Content-Type or
    /// `application/octet-stream` (``Registry/sniff(_:)``), so recognise only signatures that
    /// cannot be mistaken for text (``ContentSniffer`` has helpers).
    ///
    /// - Parameter prefix: The first bytes of the body, at most ``Registry/sniffLength``.
    /// - Complexity: Should be O(1) or at most linear in `prefix`.
    func sniff(prefix: ArraySlice<UInt8>) -> MediaType?

    /// The decisions about `response`, made once: its status and Content-Type judged by
    /// `validation`, the serializer that reads the body and its typed decoder
    /// (``ResponsePlan``). The default plans this serializer; the dispatching serializer picks
    /// the member the Content-Type (or, without a usable one, the body's bytes) selects.
    ///
    /// - Parameters:
    ///   - response: The response head.
    ///   - body: The whole body (its first bytes are sniffed when the type is missing).
    ///   - validation: The acceptable status codes (and content types, when set).
    func plan(for response: HTTPResponse, body: [UInt8], validation: ResponseValidation) -> ResponsePlan

    /// Validates and decodes a body as `plan` says.
    ///
    /// The default implementation, ``validateAndDecode(_:body:limits:)``, has AFNetworking's
    /// semantics; compound serializers replace it to pick or try their members.
    ///
    /// - Parameters:
    ///   - plan: This serializer's plan for the response (``plan(for:body:validation:)``).
    ///   - body: The whole body.
    ///   - limits: The bounds to obey.
    /// - Returns: The value, the error, or both (a bad status with a decodable body).
    func serialize(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse
}

extension ResponseSerializer {
    /// Copies `buffer` into an array for ``decode(_:contentType:limits:)``.
    public func decode(
        buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> Value? {
        try decode(Array(buffer), contentType: contentType, limits: limits)
    }

    /// Whole bodies only.
    public func makeIncrementalReader(contentType: MediaType?, limits: Limits) -> (any IncrementalReader)? {
        nil
    }

    /// The planned serializer's reader when the status is acceptable and the Content-Type is one
    /// it (or `validation`) accepts.
    public func makeIncrementalReader(
        for response: HTTPResponse, validation: ResponseValidation, limits: Limits
    ) -> (serializerName: String, reader: any IncrementalReader)? {
        let plan = plan(for: response, body: [], validation: validation)
        guard plan.acceptsStatus, plan.acceptsContentType, let serializer = plan.serializer,
            let reader = serializer.makeIncrementalReader(contentType: plan.contentType, limits: limits)
        else { return nil }
        return (serializer.name, reader)
    }

    /// Plans this serializer: the response's status and Content-Type judged by `validation`.
    public func plan(for response: HTTPResponse, body: [UInt8], validation: ResponseValidation) -> ResponsePlan {
        ResponsePlan(response: response, validation: validation, serializer: self)
    }

    /// Recognises nothing.
    public func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
        nil
    }
}

/// A reader fed a body in chunks, for parsing while bytes arrive (chunk feeding: ``feed(_:)``,
/// then ``finish()``). Readers are reference types: they usually own a native parser.
public protocol IncrementalReader: AnyObject {
    /// Feeds the next chunk of the body.
    /// - Throws: ``SatchelError`` as soon as the bytes so far cannot be the start of a valid body.
    func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError)

    /// Ends the body and returns the value (or `nil` for no value).
    /// - Throws: ``SatchelError`` when the body is incomplete or invalid.
    func finish() throws(SatchelError) -> Value?
}

/// The name ``IncrementalReader`` had before "Decoder" came to mean Codable only.
@available(*, deprecated, renamed: "IncrementalReader")
public typealias IncrementalDecoder = IncrementalReader

extension IncrementalReader {
    /// Feeds the next chunk of the body.
    public func feed(_ chunk: [UInt8]) throws(SatchelError) {
        try chunk.withUnsafeBufferPointer { (chunk) throws(SatchelError) in try feed(UnsafeRawBufferPointer(chunk)) }
    }
}
