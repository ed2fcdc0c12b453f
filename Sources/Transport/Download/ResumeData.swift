// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a later download needs to continue an interrupted one: where the partial file is and
/// which version of the resource it holds (AFNetworking's resume data).
///
/// A session keeps it beside the destination (`DEST.part` for the bytes, `DEST.part.resume`
/// for this record, JSON) while a download is incomplete; ``Session/download(_:to:parameters:headers:resume:durability:progress:)``
/// picks it up. Only a strong ETag or a Last-Modified date makes a partial file resumable: the
/// server then either sends the missing range of the same version or the whole new one.
public struct ResumeData: Codable, Sendable, Hashable {
    /// The URL the partial bytes came from.
    public var url: String
    /// The response's strong `ETag`, if it had one.
    public var entityTag: String?
    /// The response's `Last-Modified`, if it had one.
    public var lastModified: String?

    /// The partial file of a download to `destination`.
    public static func partialPath(for destination: String) -> String { destination + ".part" }

    /// The resume record of a download to `destination`.
    public static func recordPath(for destination: String) -> String { destination + ".part.resume" }

    /// The `If-Range` value: the strong ETag, else the date; `nil` when the partial bytes
    /// cannot be tied to a version.
    public var ifRange: String? {
        if let entityTag, !entityTag.hasPrefix("W/") { return entityTag }
        return lastModified
    }

    /// The record stored for `destination` and the size of its partial file, when both exist.
    public static func stored(for destination: String) -> (record: ResumeData, bytesOnDisk: Int64)? {
        guard let data = FileManager.default.contents(atPath: recordPath(for: destination)),
            let record = try? JSONDecoder().decode(ResumeData.self, from: data),
            let size = (try? FileBodyStream(path: partialPath(for: destination)))?.length
        else { return nil }
        return (record, size)
    }

    /// Writes the record for `destination`, in place and not flushed to the disk: a record lost or
    /// cut short by a crash fails to decode, and the next call starts the download over.
    /// (Foundation's `Data.write` flushes every file it writes: a wait for the disk per download.)
    func store(for destination: String) throws(SatchelError) {
        let path = Self.recordPath(for: destination)
        func failure(_ reason: String) -> SatchelError {
            SatchelError(.io, "cannot write the resume record \(path): \(reason)")
        }
        let bytes: Data
        do {
            bytes = try JSONEncoder().encode(self)
        } catch {
            throw failure("\(error)")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw failure(written < 0 ? String(cString: strerror(errno)) : "short write")
        }
    }

    /// Removes the partial file and the record of `destination`.
    static func discard(for destination: String) {
        unlink(partialPath(for: destination))
        unlink(recordPath(for: destination))
    }
}
