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
/// for this record, JSON) while a download is incomplete; ``Session/download(_:to:parameters:headers:resume:progress:)``
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

    /// Writes the record for `destination`.
    func store(for destination: String) throws(SatchelError) {
        do {
            try JSONEncoder().encode(self).write(
                to: URL(fileURLWithPath: Self.recordPath(for: destination)), options: .atomic)
        } catch {
            throw SatchelError(
                .io,
                "cannot write the resume record \(Self.recordPath(for: destination)): \(error)")
        }
    }

    /// Removes the partial file and the record of `destination`.
    static func discard(for destination: String) {
        unlink(partialPath(for: destination))
        unlink(recordPath(for: destination))
    }
}
