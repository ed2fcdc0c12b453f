// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Turns a part's body into its value (see ``MultipartResponseSerializer``).
struct PartValueReader {
    let options: MultipartReader.Options
    let rawParts: Bool
    let registry: Registry?
    let limits: Limits
    /// The depth of the body the parts belong to.
    let depth: Int
    /// The bytes of the nested bodies parsed so far, shared by every level of one body.
    let nestedBytes = NestedBytes()

    /// A running count of nested multipart bytes. Each level is parsed from a copy of its part's
    /// body and every level's parts stay in the value, so a body nested `d` deep holds about `d`
    /// copies of itself: without a bound, a 1 MB body nested 500 deep took 500 MB.
    final class NestedBytes {
        var total = 0
    }

    /// The part's value.
    /// - Throws: only ``SatchelError/Code/limitExceeded``; other failures become a
    ///   ``DecodingFailure`` value.
    ///
    /// ``value(of:depth:)`` and ``nested(_:_:_:depth:)`` call each other once per nesting level, up to
    /// ``Limits/maxDepth`` (512 by default) deep, so they keep their frames small: the work that
    /// needs many temporaries (errors, messages, the registry) is in non-inlined functions.
    /// (Inlined, a level took about 3 KB of stack, and the default depth overflowed a 512 KiB
    /// thread stack.) For the same reason they throw untyped errors: a typed `SatchelError`
    /// needs room for one in the frame of every caller. This entry, outside the recursion, gives
    /// their errors back their type; every error they throw is a ``SatchelError``.
    func value(of part: MultipartReader.Part) throws(SatchelError) -> Value {
        do {
            return try value(of: part, depth: depth)
        } catch let error as SatchelError {
            throw error
        } catch {
            throw SatchelError(.internal, "\(error)", underlying: error)
        }
    }

    /// The value of a part of a body nested `depth` deep.
    private func value(of part: MultipartReader.Part, depth: Int) throws -> Value {
        guard case .bytes(let bytes) = part.body else {
            if case .file(let file) = part.body { return .payload(file) }
            return .null
        }
        if !rawParts, let mediaType = Self.multipartType(of: part) {
            return try nested(part, bytes, mediaType, depth: depth)
        }
        return try leafValue(of: part, bytes, depth: depth)
    }

    /// The part's media type when it is a valid `multipart/*` one.
    @inline(never)
    private static func multipartType(of part: MultipartReader.Part) -> MediaType? {
        guard let text = part.contentType, let mediaType = try? MediaType(parsing: text),
            mediaType.type == "multipart"
        else { return nil }
        return mediaType
    }

    /// The value of a part that is not a nested multipart body (or of any part with ``rawParts``).
    @inline(never)
    private func leafValue(of part: MultipartReader.Part, _ bytes: [UInt8], depth: Int) throws -> Value {
        var mediaType: MediaType?
        if let text = part.contentType {
            do throws(SatchelError) {
                mediaType = try MediaType(parsing: text)
            } catch {
                return .payload(
                    DecodingFailure(
                        SatchelError(
                            .invalidMediaType, "the Content-Type of part \(part.index) is invalid: \(error.message)")))
            }
        }
        if let mediaType, !rawParts, let serializer = registry?.responseSerializer(for: mediaType) {
            // The part's own nesting counts against the depth left for what it contains
            // (an application/http part holding a multipart body holding …).
            var partLimits = limits
            partLimits.maxDepth = max(0, limits.maxDepth - depth)
            do throws(SatchelError) {
                return try serializer.decode(bytes, contentType: mediaType, limits: partLimits) ?? .null
            } catch {
                if error.code == .limitExceeded { throw Self.located(error, in: part, relative: true) }
                return .payload(DecodingFailure(error))
            }
        }
        return try raw(bytes, mediaType, part)
    }

    /// A string for text (or no Content-Type), bytes otherwise. With ``rawParts`` the string is
    /// the exact bytes when they are valid UTF-8 (a byte order mark is content); without, the
    /// text decoded in its charset.
    private func raw(
        _ bytes: [UInt8], _ mediaType: MediaType?, _ part: MultipartReader.Part
    ) throws(SatchelError) -> Value {
        guard mediaType == nil || mediaType?.type == "text",
            let text = rawParts
                ? String(validating: bytes, as: UTF8.self) : try? TextDecoding().decode(bytes, mediaType: mediaType)
        else { return .bytes(bytes) }
        if text.utf8.count > limits.maxStringBytes {
            throw SatchelError.limitExceeded(
                "maxStringBytes", limits.maxStringBytes,
                "in part \(part.index): a text body of \(text.utf8.count) bytes",
                offset: part.bodyOffset)
        }
        return .string(text)
    }

    /// A multipart part: its own parts, one level deeper.
    private func nested(
        _ part: MultipartReader.Part, _ bytes: [UInt8], _ mediaType: MediaType, depth: Int
    ) throws -> Value {
        let body: NestedBody
        do {
            body = try parseNested(part, bytes, mediaType, depth: depth + 1)
        } catch {
            return try Self.nestedFailure(error, in: part)
        }
        for index in 0..<body.parts.count {
            do {
                body.values.append(try value(of: body.parts[index], depth: depth + 1))
            } catch {
                return try Self.nestedFailure(error, in: part)
            }
        }
        do {
            return try body.finish()
        } catch {
            return try Self.nestedFailure(error, in: part)
        }
    }

    /// A nested body being decoded: its parser, its parts, and the values decoded so far.
    private final class NestedBody {
        let parser: MultipartReader
        let mediaType: MediaType
        let parts: [MultipartReader.Part]
        var values: [Value] = []

        init(parser: MultipartReader, mediaType: MediaType, parts: [MultipartReader.Part]) {
            self.parser = parser
            self.mediaType = mediaType
            self.parts = parts
            values.reserveCapacity(parts.count)
        }

        /// Checks the end of the body and returns the parts with their values.
        @inline(never)
        func finish() throws -> Value {
            try parser.finish()
            return .payload(
                MultipartParts(
                    zip(parts, values).map { MultipartParts.Element(part: $0, value: $1) }, mediaType: mediaType))
        }
    }

    /// A parser for the nested body, fed the whole body, and the parts it read.
    @inline(never)
    private func parseNested(
        _ part: MultipartReader.Part, _ bytes: [UInt8], _ mediaType: MediaType, depth: Int
    ) throws -> NestedBody {
        let parser = try MultipartReader(
            contentType: mediaType, options: options, limits: limits, depth: depth, baseOffset: part.bodyOffset)
        nestedBytes.total += bytes.count
        if nestedBytes.total > limits.maxBodyBytes {
            throw SatchelError.limitExceeded(
                "maxBodyBytes", limits.maxBodyBytes,
                "a total of \(nestedBytes.total) bytes of nested multipart bodies (each level is parsed from a copy of its part)",
                offset: part.bodyOffset)
        }
        return NestedBody(parser: parser, mediaType: mediaType, parts: try parser.feed(bytes))
    }

    /// A nested body's failure: a limit hit fails the whole body, anything else is the part's
    /// value.
    @inline(never)
    private static func nestedFailure(_ error: any Error, in part: MultipartReader.Part) throws -> Value {
        guard let error = error as? SatchelError else { throw error }
        if error.code == .limitExceeded { throw located(error, in: part, relative: false) }
        return .payload(DecodingFailure(error))
    }

    /// `error` with the part named; an offset relative to the part's body becomes an offset in
    /// the whole body.
    static func located(_ error: SatchelError, in part: MultipartReader.Part, relative: Bool) -> SatchelError {
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
