// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A multipart body resolved for streaming: every part's delimiter and header bytes written,
/// files sized and checked, lengths added up.
struct MultipartBodyPlan {
    /// Where a part's body comes from, once checked.
    enum Source {
        case bytes([UInt8])
        case file(path: String, size: Int64)
        case stream(length: Int64?, makeStream: @Sendable () throws -> any BodyStream)
        case nested(MultipartBodyPlan)
    }

    /// One part ready to stream.
    struct Part {
        /// `part 3 ("avatar")`, for error messages.
        let label: String
        /// The delimiter (with the line break that ends the previous part), headers and blank line.
        let head: [UInt8]
        let source: Source
        /// The body's length, when known.
        let length: Int64?
    }

    let parts: [Part]
    /// The close delimiter: `\r\n--boundary--\r\n` (without the leading line break for a body
    /// without parts).
    let closing: [UInt8]
    /// The whole body's length, when every part's is known.
    let length: Int64?

    init(_ form: MultipartFormData, enclosingBoundaries: [MultipartBoundary]) throws(SatchelError) {
        let boundaries = enclosingBoundaries + [form.boundary]
        var parts: [Part] = []
        parts.reserveCapacity(form.parts.count)
        var total: Int64? = 0
        for (index, part) in form.parts.enumerated() {
            let planned = try Self.plan(part, index: index, in: form, boundaries: boundaries)
            parts.append(planned)
            if let sum = total, let length = planned.length {
                total = try Self.add(sum, Int64(planned.head.count), length, label: planned.label)
            } else {
                total = nil
            }
        }
        let closing = Array("\(parts.isEmpty ? "" : "\r\n")--\(form.boundary.value)--\r\n".utf8)
        self.parts = parts
        self.closing = closing
        self.length = try total.map { sum throws(SatchelError) in
            try Self.add(sum, Int64(closing.count), 0, label: "the closing delimiter")
        }
    }

    /// `a + b + c`, or ``SatchelError/Code/invalidArgument`` when a declared length makes the
    /// body longer than `Int64.max` bytes (instead of trapping on the overflow).
    private static func add(_ a: Int64, _ b: Int64, _ c: Int64, label: String) throws(SatchelError) -> Int64 {
        let (partial, overflow1) = a.addingReportingOverflow(b)
        let (sum, overflow2) = partial.addingReportingOverflow(c)
        guard !overflow1 && !overflow2 else {
            throw SatchelError(.invalidArgument, "\(label): the body would be longer than \(Int64.max) bytes")
        }
        return sum
    }

    private static func plan(
        _ part: MultipartPart, index: Int, in form: MultipartFormData, boundaries: [MultipartBoundary]
    ) throws(SatchelError) -> Part {
        let label = MultipartPart.label(index: index, name: part.name, filename: part.filename)
        let source: Source
        let length: Int64?
        var inferredTypeFrom = part.filename
        switch part.body {
        case .bytes(let bytes):
            for boundary in boundaries {
                if let offset = Self.firstDelimiter(of: boundary, in: bytes) {
                    throw SatchelError(
                        .invalidArgument,
                        "\(label): its bytes contain the delimiter \"--\(boundary.value)\" at byte \(offset) of the part, "
                            + "which would end it early; use another boundary")
                }
            }
            source = .bytes(bytes)
            length = Int64(bytes.count)
        case .file(let path):
            let size = try Self.checkFile(path, label: label)
            source = .file(path: path, size: size)
            length = size
            if part.filename.flatMap(MediaTypeTable.fileExtension(of:)) == nil { inferredTypeFrom = path }
        case .stream(let declared, let makeStream):
            source = .stream(length: declared, makeStream: makeStream)
            length = declared
        case .multipart(let nested):
            if let enclosing = boundaries.first(where: { nested.boundary.value.hasPrefix($0.value) }) {
                throw SatchelError(
                    .invalidArgument,
                    "\(label): the nested body's boundary \"\(nested.boundary.value)\" starts with the enclosing "
                        + "boundary \"\(enclosing.value)\"")
            }
            let plan: MultipartBodyPlan
            do {
                plan = try MultipartBodyPlan(nested, enclosingBoundaries: boundaries)
            } catch {
                throw MultipartBodyStream.wrap(error, label: label, offset: nil)
            }
            source = .nested(plan)
            length = plan.length
        }
        let head = headBytes(for: part, index: index, in: form, inferringTypeFrom: inferredTypeFrom)
        return Part(label: label, head: head, source: source, length: length)
    }

    /// The delimiter and the header block: Content-Disposition, Content-Type, custom headers.
    private static func headBytes(
        for part: MultipartPart, index: Int, in form: MultipartFormData, inferringTypeFrom filename: String?
    ) -> [UInt8] {
        var head = index == 0 ? "" : "\r\n"
        head += "--\(form.boundary.value)\r\n"
        if let header = part.headers.first(named: "content-disposition") {
            head += "\(header.name): \(header.value)\r\n"
        } else if let type = part.dispositionType
            ?? (form.subtype == .formData ? "form-data" : (part.name ?? part.filename).map { _ in "attachment" })
        {
            let value = MultipartHeaderEscaping.contentDisposition(type: type, name: part.name, filename: part.filename)
            head += "Content-Disposition: \(value)\r\n"
        }
        if case .multipart(let nested) = part.body {
            head += "Content-Type: \(nested.contentType)\r\n"
        } else if let header = part.headers.first(named: "content-type") {
            head += "\(header.name): \(header.value)\r\n"
        } else if let mediaType = part.mediaType {
            head += "Content-Type: \(mediaType)\r\n"
        } else if let filename {
            head += "Content-Type: \(form.mediaTypes.mediaType(forPath: filename))\r\n"
        }
        for header in part.headers {
            let name = header.name.lowercased()
            if name == "content-disposition" || name == "content-type" { continue }
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// Checks that `path` is a readable regular file and returns its size.
    private static func checkFile(_ path: String, label: String) throws(SatchelError) -> Int64 {
        let size: Int64?
        do {
            size = try FileBodyStream(path: path).length
        } catch {
            throw MultipartBodyStream.wrap(error, label: label, offset: nil)
        }
        guard access(path, R_OK) == 0 else {
            throw SatchelError(.io, "\(label): cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard let size else {
            throw SatchelError(.internal, "\(label): \(path) has no size")
        }
        return size
    }

    /// The offset of the first `--boundary` in `bytes` that starts a line (at the start, or
    /// after a line feed, since lenient parsers accept a bare LF before a delimiter).
    static func firstDelimiter(of boundary: MultipartBoundary, in bytes: [UInt8]) -> Int? {
        let delimiter = boundary.dashedBytes
        guard bytes.count >= delimiter.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var start = 0
            while start + delimiter.count <= buffer.count {
                if buffer[start] == UInt8(ascii: "-")
                    && buffer[start..<(start + delimiter.count)].elementsEqual(delimiter)
                {
                    return start
                }
                // Move to the byte after the next line feed.
                guard let feed = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                start = feed + 1
            }
            return nil
        }
    }
}
