// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension MultipartFormData {
    /// Appends a text field: its UTF-8 bytes, with no Content-Type (text/plain by RFC 7578).
    public mutating func append(_ value: String, name: String) {
        parts.append(MultipartPart(name: name, body: .bytes(Array(value.utf8))))
    }

    /// Appends bytes in memory.
    ///
    /// - Parameters:
    ///   - bytes: The part's body.
    ///   - name: The field name.
    ///   - filename: A file name, making the part a file upload; `nil` for a plain field.
    ///   - mediaType: The Content-Type; `nil` for none on a field, or the type inferred from the
    ///     file name's extension.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a media type that cannot be written.
    public mutating func append(
        _ bytes: [UInt8], name: String, filename: String? = nil, mediaType: MediaType? = nil
    ) throws(SatchelError) {
        try append(MultipartPart(name: name, filename: filename, mediaType: mediaType, body: .bytes(bytes)))
    }

    /// Appends a file, opened only when the body reaches it.
    ///
    /// The file is sized and checked (exists, regular, readable) by ``makeBodyStream()``, not
    /// here, and must keep that size until it is sent.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - name: The field name.
    ///   - filename: The file name sent; the last component of `path` by default.
    ///   - mediaType: The Content-Type; by default inferred from the extension of the file name
    ///     sent (or of `path` when that name has none), see ``MediaTypeTable``.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a media type that cannot be written.
    public mutating func append(
        fileAt path: String, name: String, filename: String? = nil, mediaType: MediaType? = nil
    ) throws(SatchelError) {
        let baseName = path.split(separator: "/").last.map(String.init) ?? path
        try append(
            MultipartPart(name: name, filename: filename ?? baseName, mediaType: mediaType, body: .file(path: path)))
    }

    /// Appends a stream made by `makeStream` each time the body reaches the part.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - filename: A file name, or `nil` for a plain field.
    ///   - mediaType: The Content-Type; as for bytes.
    ///   - length: The exact number of bytes the stream yields, or `nil` when unknown (the whole
    ///     body's length is then unknown and it is sent chunked).
    ///   - makeStream: Returns a fresh stream positioned at its first byte; called again after a
    ///     rewind.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a negative length or a media type that
    ///   cannot be written.
    public mutating func append(
        name: String, filename: String? = nil, mediaType: MediaType? = nil, length: Int64?,
        stream makeStream: @escaping @Sendable () throws -> any BodyStream
    ) throws(SatchelError) {
        try append(
            MultipartPart(
                name: name, filename: filename, mediaType: mediaType,
                body: .stream(length: length, makeStream: makeStream)))
    }

    /// Appends a nested multipart body, such as `multipart/mixed` inside `multipart/form-data`.
    ///
    /// - Parameters:
    ///   - multipart: The nested body; its boundary must not start with this body's boundary
    ///     (checked when the stream is made; random boundaries never do).
    ///   - name: The field name.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when the nested body's boundary starts
    ///   with this body's boundary.
    public mutating func append(_ multipart: MultipartFormData, name: String) throws(SatchelError) {
        try append(MultipartPart(name: name, body: .multipart(multipart)))
    }

    /// Makes form parameters parts, named and ordered exactly as the form serializer writes
    /// them: `{"user": {"tags": ["a"]}}` becomes a field `user[tags][]` with the text `a`; a null
    /// becomes an empty field (as AFNetworking sends it); bytes are sent as they are.
    ///
    /// - Parameters:
    ///   - parameters: An object, or ``Value/null`` for none.
    ///   - encoder: The naming, ordering and scalar rules; the form serializer's defaults.
    /// - Throws: The errors of ``FormWriter/pairs(from:)``.
    public mutating func append(parameters: Value, encoder: FormWriter = FormWriter()) throws(SatchelError) {
        for pair in try encoder.pairs(from: parameters) {
            parts.append(MultipartPart(name: pair.key, body: .bytes(pair.value ?? [])))
        }
    }

    /// Appends a part with any headers.
    ///
    /// - Throws: ``SatchelError/Code/invalidArgument``, naming the part's index, for a part of a
    ///   `multipart/form-data` body without a name (and no custom Content-Disposition), a
    ///   disposition type or header name that is not a token, a header value with CR, LF or
    ///   another control character, a media type whose type, subtype or parameter names are not
    ///   tokens, two Content-Type or Content-Disposition headers, a negative stream length, a
    ///   media type or Content-Type header on a nested multipart part, or a nested body whose boundary starts with this one's.
    public mutating func append(_ part: MultipartPart) throws(SatchelError) {
        try Self.validate(part, index: parts.count, in: subtype, boundary: boundary)
        parts.append(part)
    }

    static func validate(
        _ part: MultipartPart, index: Int, in subtype: Subtype, boundary: MultipartBoundary
    ) throws(SatchelError) {
        let label = MultipartPart.label(index: index, name: part.name, filename: part.filename)
        func invalid(_ message: String) -> SatchelError {
            SatchelError(.invalidArgument, "\(label): \(message)")
        }
        let hasCustomDisposition = part.headers.first(named: "content-disposition") != nil
        if subtype == .formData && part.name == nil && !hasCustomDisposition {
            throw invalid("a part of multipart/form-data needs a name")
        }
        if let type = part.dispositionType, !MultipartHeaderEscaping.isToken(type) {
            throw invalid("the disposition type \(Value.string(type).canonicalJSON()) is not a token")
        }
        if let mediaType = part.mediaType {
            let names = [mediaType.type, mediaType.subtype] + mediaType.parameters.map(\.name)
            if let bad = names.first(where: { !MultipartHeaderEscaping.isToken($0) }) {
                throw invalid(
                    "the media type \(Value.string(mediaType.description).canonicalJSON()) has "
                        + "\(Value.string(bad).canonicalJSON()), which is not a token")
            }
        }
        for special in ["content-disposition", "content-type"]
        where part.headers.values(named: special).count > 1 {
            throw invalid("the part has more than one \(special) header")
        }
        for header in part.headers {
            guard MultipartHeaderEscaping.isToken(header.name) else {
                throw invalid("the header name \(Value.string(header.name).canonicalJSON()) is not a token")
            }
            if let (offset, byte) = MultipartHeaderEscaping.firstForbiddenByte(inHeaderValue: header.value) {
                throw invalid(
                    "the value of header \(header.name) contains \(MultipartBoundary.describe(byte)) "
                        + "at position \(offset); header values cannot contain CR, LF or other control characters")
            }
        }
        switch part.body {
        case .stream(let length?, _) where length < 0:
            throw invalid("a stream's declared length must not be negative, not \(length)")
        case .multipart where part.mediaType != nil || part.headers.first(named: "content-type") != nil:
            throw invalid("a nested multipart part's Content-Type is its body's (with its boundary) and cannot be set")
        case .multipart(let nested) where nested.boundary.value.hasPrefix(boundary.value):
            throw invalid(
                "the nested body's boundary \(Value.string(nested.boundary.value).canonicalJSON()) "
                    + "starts with the enclosing boundary, so it would end the enclosing body early")
        default:
            break
        }
    }
}
