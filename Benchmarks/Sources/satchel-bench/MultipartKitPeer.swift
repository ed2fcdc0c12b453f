// SPDX-License-Identifier: Apache-2.0
import Foundation
import MultipartKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// vapor/multipart-kit 4.7.1, the multipart peer, used the way its own code uses it. This file
/// imports MultipartKit and not Satchel: both have a `MultipartParser` and a
/// `MultipartSerializer`.
enum MultipartKitPeer {
    /// One part as multipart-kit's own `FormDataDecoder` collects it: every header field, and
    /// the body gathered into one `ByteBuffer`.
    struct CollectedPart {
        /// The header fields in the order they arrived.
        var headers: [(name: String, value: String)]
        /// The body.
        var body: ByteBuffer

        /// The `name` of the Content-Disposition, as multipart-kit reads it.
        var name: String? {
            var fields = HTTPHeaders()
            for header in headers {
                fields.add(name: header.name, value: header.value)
            }
            return MultipartPart(headers: fields, body: ByteBuffer()).name
        }

        /// The body's bytes, copied out.
        var bodyBytes: [UInt8] { Array(body.readableBytesView) }
    }

    /// Builds a `multipart/form-data` body of `fields` (name, value) and the file at `path` with
    /// `MultipartSerializer`, which needs every part's body as a `ByteBuffer` in memory: the file
    /// is read whole into one, then serialized into a second.
    ///
    /// - Returns: The serialized body.
    static func build(
        fields: [(name: String, value: String)], fileAt path: String, filename: String,
        contentType: String, boundary: String
    ) throws -> ByteBuffer {
        var parts = fields.map { field in
            MultipartPart(headers: ["Content-Disposition": "form-data; name=\"\(field.name)\""], body: field.value)
        }
        let fileHeaders: HTTPHeaders = [
            "Content-Disposition": "form-data; name=\"upload\"; filename=\"\(filename)\"",
            "Content-Type": contentType,
        ]
        parts.append(MultipartPart(headers: fileHeaders, body: try readFile(path)))
        var body = ByteBuffer()
        try MultipartSerializer().serialize(parts: parts, boundary: boundary, into: &body)
        return body
    }

    /// ``build(fields:fileAt:filename:contentType:boundary:)``'s body as bytes, for the guards.
    static func buildBytes(
        fields: [(name: String, value: String)], fileAt path: String, filename: String,
        contentType: String, boundary: String
    ) throws -> [UInt8] {
        let body = try build(
            fields: fields, fileAt: path, filename: filename, contentType: contentType, boundary: boundary)
        return Array(body.readableBytesView)
    }

    /// Writes `buffer` to the descriptor; returns the bytes written.
    static func write(_ buffer: ByteBuffer, to descriptor: Int32) throws -> Int {
        try buffer.withUnsafeReadableBytes { bytes in
            try MultipartBuildContender.writeAll(bytes, to: descriptor)
            return bytes.count
        }
    }

    /// Parses a body fed as `chunks` with `MultipartParser`, collecting parts as multipart-kit's
    /// `FormDataDecoder` does (headers, and body pieces written into one buffer per part).
    static func parse(chunks: [ByteBuffer], boundary: String) throws -> [CollectedPart] {
        let parser = MultipartParser(boundary: boundary)
        var parts: [CollectedPart] = []
        var headers: [(name: String, value: String)] = []
        var body = ByteBuffer()
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { piece in body.writeBuffer(&piece) }
        parser.onPartComplete = {
            parts.append(CollectedPart(headers: headers, body: body))
            headers = []
            body = ByteBuffer()
        }
        for chunk in chunks {
            try parser.execute(chunk)
        }
        return parts
    }

    /// `bytes` cut into `ByteBuffer`s of `size` bytes (the last one shorter).
    static func chunks(of bytes: [UInt8], size: Int) -> [ByteBuffer] {
        stride(from: 0, to: bytes.count, by: size).map { start in
            ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)])
        }
    }

    /// The whole file at `path` in one `ByteBuffer`, read with read(2) straight into it.
    private static func readFile(_ path: String) throws -> ByteBuffer {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchmarkFailure.corpus("cannot open \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw BenchmarkFailure.corpus("cannot stat \(path)") }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(Int(status.st_size))
        while true {
            // No minimum: growing the buffer past the file's size would copy it.
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { space in
                space.isEmpty ? 0 : max(0, Glibc.read(descriptor, space.baseAddress, space.count))
            }
            if count == 0 { break }
        }
        guard buffer.readableBytes == Int(status.st_size) else {
            throw BenchmarkFailure.corpus("read \(buffer.readableBytes) of \(status.st_size) bytes of \(path)")
        }
        return buffer
    }
}
