// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Builds a multipart body — `multipart/form-data` (RFC 7578), `multipart/mixed` or
/// `multipart/related` (RFC 2046, RFC 2387) — that is streamed, never held in memory.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ann", name: "user")
/// try form.append(fileAt: "/tmp/photo.jpg", name: "avatar")
/// let body = try form.makeBodyStream()   // files sized and checked here
/// // body.length: the exact Content-Length; form.contentType: multipart/form-data; boundary=…
/// ```
///
/// The builder is a value: appending parts only records where their bytes come from. Files are
/// sized and checked, and every part's headers are written, when ``makeBodyStream()`` is called;
/// files are opened and streams made only when the body reaches them. The stream costs the same
/// memory whatever the size of its parts, knows its exact length before the first byte when every
/// part has a known size, and can be rewound.
///
/// Parts are numbered from 0 in error messages and progress reports.
public struct MultipartFormData: Sendable {
    /// The multipart subtype: `form-data`, `mixed`, `related`, `alternative` or another token.
    public let subtype: Subtype

    /// The boundary between parts.
    public let boundary: MultipartBoundary

    /// The parts, in the order they are written.
    public internal(set) var parts: [MultipartPart] = []

    /// Extra Content-Type parameters after `boundary`, such as `type` and `start` for
    /// `multipart/related`.
    public internal(set) var contentTypeParameters: [MediaType.Parameter] = []

    /// Called after each read of the body stream with how far each part touched has got.
    public var progressHandler: (@Sendable (MultipartProgress) -> Void)?

    /// Limits each read to a packet size and pauses between packets; `nil` for full speed.
    public var throttle: MultipartThrottle?

    /// Whether the body stream hashes the bytes it yields with SHA-256; the digest is read from
    /// ``MultipartBodyStream/sha256Digest`` once the stream has ended.
    public var computesSHA256 = false

    /// Where media types of file parts are looked up; ``MediaTypeTable/standard`` by default.
    public var mediaTypes: MediaTypeTable = .standard

    /// Creates an empty builder.
    ///
    /// - Parameters:
    ///   - subtype: The multipart subtype; `form-data` by default.
    ///   - boundary: The boundary; a new random one by default. Pass an explicit one
    ///     (`try MultipartBoundary("…")`) for reproducible output.
    public init(subtype: Subtype = .formData, boundary: MultipartBoundary = .random()) {
        self.subtype = subtype
        self.boundary = boundary
    }

    /// The Content-Type of the body: `multipart/<subtype>; boundary=…` and any
    /// ``contentTypeParameters``; the boundary is quoted only when it has to be.
    public var contentType: MediaType {
        MediaType(
            type: "multipart", subtype: subtype.rawValue,
            parameters: [MediaType.Parameter(name: "boundary", value: boundary.value)] + contentTypeParameters)
    }

    /// Adds a Content-Type parameter, such as `type="application/json"` for `multipart/related`.
    ///
    /// - Throws: ``SatchelError/Code/invalidArgument`` when `name` is not a token or is `boundary`.
    public mutating func addContentTypeParameter(name: String, value: String) throws(SatchelError) {
        guard MultipartHeaderEscaping.isToken(name) else {
            throw SatchelError(
                .invalidArgument, "the Content-Type parameter name \(Value.string(name).canonicalJSON()) is not a token"
            )
        }
        guard name.lowercased() != "boundary" else {
            throw SatchelError(.invalidArgument, "the boundary parameter is set by the builder's boundary")
        }
        contentTypeParameters.append(MediaType.Parameter(name: name, value: value))
    }

    /// Sizes and checks every part and returns the body as a stream.
    ///
    /// Files are checked here — they must exist, be regular files and be readable — and their
    /// sizes recorded; each is opened only when the stream reaches it and must still have that
    /// size. Bytes in memory are checked not to contain a delimiter line of this body (or of an
    /// enclosing one).
    ///
    /// - Returns: A rewindable stream; its `length` is exact when every part has a known size
    ///   and `nil` (send chunked) otherwise.
    /// - Throws: ``SatchelError`` naming the part: ``SatchelError/Code/io`` for a file that is
    ///   missing, not a regular file or unreadable; ``SatchelError/Code/invalidArgument`` when
    ///   the boundary occurs in a part's bytes or a nested body's boundary starts with an
    ///   enclosing one.
    public func makeBodyStream() throws(SatchelError) -> MultipartBodyStream {
        let plan = try MultipartBodyPlan(self, enclosingBoundaries: [])
        return MultipartBodyStream(
            plan: plan, progressHandler: progressHandler, throttle: throttle, computesSHA256: computesSHA256)
    }
}

extension MultipartFormData: RequestBodySource {
    /// ``makeBodyStream()``, for the transport: a new stream for every attempt of a request.
    public func makeRequestBodyStream() throws(SatchelError) -> any BodyStream {
        try makeBodyStream()
    }
}
