// SPDX-License-Identifier: Apache-2.0
import Satchel

/// The standard registry under tight limits, shared by every input: it is thread-safe and
/// immutable once built, and its multipart and HTTP serializers hold it weakly.
let fuzzRegistry = Registry.standard(limits: FuzzLimits.tight)

extension FuzzTarget {
    /// `MultipartReader` on the input after its first line, which is the Content-Type (or, when
    /// that is not a multipart type, a bare boundary), whole and fed in chunks; the parts must
    /// agree. Some inputs run lenient, some with CRLF line endings only, some with a small memory
    /// threshold so parts spill to temporary files.
    static let multipart = FuzzTarget(
        name: "multipart", summary: "MultipartReader whole and chunked (first line: Content-Type or boundary)"
    ) { input in
        let (line, body) = input.splitFirstLine()
        let options = MultipartReader.Options(
            lenient: input.flag(0), lineEndings: input.flag(3) ? .crlf : .crlfOrLF,
            memoryThreshold: input.flag(1) ? 256 : 1 << 20)
        let limits = FuzzLimits.tight
        func makeParser() throws(SatchelError) -> MultipartReader {
            if let type = try? MediaType(parsing: line), type.type == "multipart" {
                return try MultipartReader(contentType: type, options: options, limits: limits)
            }
            return try MultipartReader(boundary: line, isFormData: input.flag(2), options: options, limits: limits)
        }
        let whole = FuzzCheck.outcome("MultipartReader whole") { () throws -> [MultipartReader.Part] in
            let parser = try makeParser()
            let parts = try parser.feed(body)
            try parser.finish()
            return parts
        }
        let chunked = FuzzCheck.outcome("MultipartReader chunked") { () throws -> [MultipartReader.Part] in
            let parser = try makeParser()
            var parts: [MultipartReader.Part] = []
            for chunk in input.chunks(of: body) {
                parts += try chunk.withUnsafeBytes { try parser.feed($0) }
            }
            try parser.finish()
            return parts
        }
        FuzzCheck.agree("multipart", whole: whole, chunked: chunked, same: ==)
        guard case .success(let parts) = whole else { return }
        for part in parts {
            _ = (part.mediaType, part.safeFilename, part.size, part.header("Content-Type"))
            guard case .success(let bytes) = FuzzCheck.outcome("Part.bytes", { try part.bytes() }),
                bytes.count == part.size
            else {
                FuzzCheck.fail("part \(part.index) does not read back its \(part.size) bytes")
            }
        }
    }

    /// The dispatching serializer over the standard registry, with the Content-Type from the
    /// first line (none when it is empty: the format is sniffed): multipart/mixed batches with
    /// nested multipart and `application/http` parts, and every member format. The member the
    /// registry picks also decodes incrementally in chunks, and must agree.
    static let compound = FuzzTarget(
        name: "compound", summary: "DispatchingResponseSerializer over Registry.standard (first line: Content-Type)"
    ) { input in
        let (line, body) = input.splitFirstLine()
        let contentType = line.isEmpty ? nil : try? MediaType(parsing: line)
        let dispatching = DispatchingResponseSerializer(registry: fuzzRegistry)
        _ = FuzzCheck.outcome("DispatchingResponseSerializer.decode") {
            try dispatching.decode(body, contentType: contentType, limits: FuzzLimits.tight)
        }
        if let contentType, let member = fuzzRegistry.responseSerializer(for: contentType) {
            // libxml2's push parser may name another first error (docs/Fuzzing.md).
            let isXML = member.name == "xml" || member.name == "xml-events"
            _ = decodeBothWays(
                "compound member \(member.name)", member, input, contentType: contentType, body: body, sameCode: !isXML)
        }
    }

    /// `HTTPMessageResponseSerializer` (an `application/http` batch part) over the standard
    /// registry, so the embedded body is decoded by its own Content-Type.
    static let httpMessage = FuzzTarget(
        name: "http-message", summary: "HTTPMessageResponseSerializer (application/http parts)"
    ) { input in
        let serializer = HTTPMessageResponseSerializer(registry: fuzzRegistry)
        let contentType = MediaType(type: "application", subtype: "http")
        let value = FuzzCheck.outcome("HTTPMessageResponseSerializer.decode") {
            try serializer.decode(input.bytes, contentType: contentType, limits: FuzzLimits.tight)
        }
        if case .success(.payload(let payload)?) = value, let message = payload as? EmbeddedHTTPMessage {
            _ = (message.canonicalValue, message.header("Content-Type"))
        }
    }
}
