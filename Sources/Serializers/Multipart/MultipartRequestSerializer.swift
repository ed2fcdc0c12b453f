// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Writes form parameters as a `multipart/form-data` body (AFNetworking's
/// `multipartFormRequestWithMethod:…`), one text part per parameter, named and ordered as the
/// form serializer writes them (`user[tags][]`).
///
/// The serializer has one boundary, random unless given, so that ``contentType`` — which
/// carries it — and ``encodeBody(_:)`` always agree; serializing a request sets that
/// Content-Type on the request. For files and streams, build a ``MultipartFormData`` with
/// ``formData(from:)`` and append to it.
public struct MultipartRequestSerializer: RequestSerializer {
    /// `"multipart"`.
    public var name: String { "multipart" }

    /// The boundary of every body this serializer writes.
    public let boundary: MultipartBoundary

    /// How parameters are named, ordered and written as text: ``FormWriter``'s rules.
    public var encoding: FormWriter.Options

    /// Headers set on every serialized request unless it already has them; Accept-Language and
    /// User-Agent by default.
    public var headers: HTTPFields

    /// Creates a multipart serializer.
    ///
    /// - Parameters:
    ///   - boundary: The boundary; a new random one by default.
    ///   - encoding: Naming and ordering rules; the form serializer's defaults.
    ///   - headers: Headers set on every request that lacks them; ``DefaultHeaders/standard``.
    public init(
        boundary: MultipartBoundary = .random(),
        encoding: FormWriter.Options = FormWriter.Options(),
        headers: HTTPFields = DefaultHeaders.standard
    ) {
        self.boundary = boundary
        self.encoding = encoding
        self.headers = headers
    }

    /// `multipart/form-data; boundary=…` with this serializer's boundary.
    public var contentType: MediaType {
        MediaType(
            type: "multipart", subtype: "form-data",
            parameters: [MediaType.Parameter(name: "boundary", value: boundary.value)])
    }

    /// A builder with this serializer's boundary holding `parameters` as parts, to which files
    /// and streams can be appended.
    ///
    /// - Parameter parameters: An object, or ``Value/null`` for none.
    /// - Throws: The errors of ``FormWriter/pairs(from:)``.
    public func formData(from parameters: Value) throws(SatchelError) -> MultipartFormData {
        var form = MultipartFormData(subtype: .formData, boundary: boundary)
        try form.append(parameters: parameters, encoder: FormWriter(options: encoding))
        return form
    }

    /// The body for `parameters` as a stream.
    ///
    /// - Throws: As ``formData(from:)`` and ``MultipartFormData/makeBodyStream()``.
    public func makeBodyStream(_ parameters: Value) throws(SatchelError) -> MultipartBodyStream {
        try formData(from: parameters).makeBodyStream()
    }

    /// The body for `value` in memory.
    ///
    /// - Parameter value: An object, or ``Value/null`` (a body with no parts).
    /// - Throws: ``SatchelError/Code/invalidArgument`` when `value` is neither an object nor null
    ///   or a value contains this serializer's delimiter; ``SatchelError/Code/unencodableValue``
    ///   for a payload or a non-finite number; ``SatchelError/Code/limitExceeded`` for nesting
    ///   deeper than ``FormWriter/Options/maxDepth``.
    public func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        try makeBodyStream(value).bytes(limit: Int.max)
    }
}
