import SerializerRegistry

/// Turns a part's body into its value (see ``MultipartResponseSerializer``).
struct PartValueDecoder {
    let options: MultipartParser.Options
    let rawParts: Bool
    let registry: Registry?
    let limits: Limits
    /// The depth of the body the parts belong to.
    let depth: Int

    /// The part's value.
    /// - Throws: only ``SatchelError/Code/limitExceeded``; other failures become a
    ///   ``DecodingFailure`` value.
    func value(of part: MultipartParser.Part) throws(SatchelError) -> Value {
        guard case .bytes(let bytes) = part.body else {
            if case .file(let file) = part.body { return .payload(file) }
            return .null
        }
        var mediaType: MediaType?
        if let text = part.contentType {
            do throws(SatchelError) {
                mediaType = try MediaType(parsing: text)
            } catch {
                return .payload(DecodingFailure(SatchelError(
                    .invalidMediaType, "the Content-Type of part \(part.index) is invalid: \(error.message)")))
            }
        }
        if let mediaType, !rawParts {
            if mediaType.type == "multipart" { return try nested(part, bytes, mediaType) }
            if let serializer = registry?.responseSerializer(for: mediaType) {
                do {
                    return try serializer.decode(bytes, contentType: mediaType, limits: limits) ?? .null
                } catch {
                    let failure = error as? SatchelError ?? SatchelError(.internal, "\(error)", underlying: error)
                    if failure.code == .limitExceeded { throw Self.located(failure, in: part, relative: true) }
                    return .payload(DecodingFailure(failure))
                }
            }
        }
        return try raw(bytes, mediaType, part)
    }

    /// A string for text (or no Content-Type) that decodes in its charset, bytes otherwise.
    private func raw(_ bytes: [UInt8], _ mediaType: MediaType?, _ part: MultipartParser.Part) throws(SatchelError) -> Value {
        guard mediaType == nil || mediaType?.type == "text" else { return .bytes(bytes) }
        let text: String?
        switch mediaType?.charset {
        case nil, "utf-8", "utf8", "us-ascii":
            text = String(validating: bytes, as: UTF8.self)
        case "iso-8859-1", "latin1", "l1":
            text = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            text = nil
        }
        guard let text else { return .bytes(bytes) }
        if text.utf8.count > limits.maxStringBytes {
            throw SatchelError.limitExceeded(
                "maxStringBytes", limits.maxStringBytes, "in part \(part.index): a text body of \(text.utf8.count) bytes",
                offset: part.bodyOffset)
        }
        return .string(text)
    }

    /// A multipart part: its own parts, one level deeper.
    private func nested(_ part: MultipartParser.Part, _ bytes: [UInt8], _ mediaType: MediaType) throws(SatchelError) -> Value {
        do throws(SatchelError) {
            let parser = try MultipartParser(
                contentType: mediaType, options: options, limits: limits, depth: depth + 1, baseOffset: part.bodyOffset)
            let inner = PartValueDecoder(
                options: options, rawParts: rawParts, registry: registry, limits: limits, depth: depth + 1)
            var elements: [MultipartParts.Element] = []
            for innerPart in try parser.feed(bytes) {
                elements.append(MultipartParts.Element(part: innerPart, value: try inner.value(of: innerPart)))
            }
            try parser.finish()
            return .payload(MultipartParts(elements))
        } catch {
            if error.code == .limitExceeded { throw Self.located(error, in: part, relative: false) }
            return .payload(DecodingFailure(error))
        }
    }

    /// `error` with the part named; an offset relative to the part's body becomes an offset in
    /// the whole body.
    static func located(_ error: SatchelError, in part: MultipartParser.Part, relative: Bool) -> SatchelError {
        var located = error
        located.message = "in part \(part.index): \(error.message)"
        if relative {
            located.offset = error.offset.map { $0 + part.bodyOffset }
            located.line = nil
            located.column = nil
        }
        return located
    }
}
