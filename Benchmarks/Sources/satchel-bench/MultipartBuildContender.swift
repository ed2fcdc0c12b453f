// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One contender of the multipart build benchmark, run alone in its own process
/// (``IsolatedContender``) so that its peak resident set size is its own. Each uploads the same
/// file with two small text fields, to `/dev/null`.
enum MultipartBuildContender: String, CaseIterable, Sendable {
    /// `MultipartFormData` → `MultipartBodyStream.write(toFileDescriptor:)`: the stream read
    /// through one 64 KiB buffer, as the CLI and the transport read it.
    case satchel = "multipart-build-satchel"
    /// read(2)/write(2) of the file alone through one 64 KiB buffer: the floor.
    case readWriteLoop = "multipart-build-read-write-loop"
    /// multipart-kit's `MultipartSerializer`: the file read into a `ByteBuffer`, serialized into
    /// another, written out in one go.
    case multipartKit = "multipart-build-multipart-kit"

    /// The boundary all contenders write.
    static let boundary = "satchel-bench-upload-3f7a1c9e5b"
    /// The text fields before the file part.
    static let fields = [
        (name: "title", value: "Holiday photos, full resolution"), (name: "album", value: "2026-summer"),
    ]
    /// The buffer size of Satchel's copy loop, used by the plain loop too.
    static let chunkSize = MultipartBodyStream.copyBufferSize

    /// The work to time on the file at `path`; each run returns the bytes it wrote and fails if
    /// that is not the whole body (or file).
    func work(input path: String) throws -> Sampler.Work {
        let sink = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard sink >= 0 else { throw BenchmarkFailure.corpus("cannot open /dev/null") }
        let filename = URL(fileURLWithPath: path).lastPathComponent
        switch self {
        case .satchel:
            return {
                let stream = try Self.satchelForm(fileAt: path).makeBodyStream()
                let written = try stream.write(toFileDescriptor: sink, named: "/dev/null")
                guard written == stream.length else {
                    throw BenchmarkFailure.guardFailed("Satchel wrote \(written) of \(stream.length ?? -1) bytes")
                }
                return written
            }
        case .readWriteLoop:
            return { try Self.copy(path, to: sink) }
        case .multipartKit:
            return {
                let body = try MultipartKitPeer.build(
                    fields: Self.fields, fileAt: path, filename: filename,
                    contentType: "application/octet-stream", boundary: Self.boundary)
                return try MultipartKitPeer.write(body, to: sink)
            }
        }
    }

    /// Satchel's form: the fields, then the file as `upload`.
    static func satchelForm(fileAt path: String) throws -> MultipartFormData {
        var form = MultipartFormData(boundary: try MultipartBoundary(boundary))
        for field in fields {
            form.append(field.value, name: field.name)
        }
        try form.append(
            fileAt: path, name: "upload", mediaType: MediaType(type: "application", subtype: "octet-stream"))
        return form
    }

    /// Copies the file at `path` to `sink` through one ``chunkSize`` buffer; returns the bytes.
    static func copy(_ path: String, to sink: Int32) throws -> Int {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw BenchmarkFailure.corpus("cannot open \(path)") }
        defer { close(source) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let count = read(source, buffer.baseAddress, chunkSize)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw BenchmarkFailure.corpus("cannot read \(path)") }
            if count == 0 { return total }
            try writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: sink)
            total += count
        }
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and interruptions.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written >= 0 else { throw BenchmarkFailure.guardFailed("write failed, errno \(errno)") }
            offset += written
        }
    }
}
