// SPDX-License-Identifier: Apache-2.0
import CSatchelFile
import Glibc
import HTTPTypes
import SerializerRegistry

/// Writes a download's body to its partial file: appended after the bytes on disk for a 206
/// that continues them, from the start for a 200. Other responses (errors, redirects) are
/// kept in memory, capped, and never touch the file.
final class DownloadSink: ResponseSink {
    private let destination: String
    private let url: String
    private let requestedOffset: Int64
    private let isFinal: (HTTPResponse) -> Bool
    private let durability: DownloadDurability
    private var descriptor: Int32 = -1
    /// A failed flush of the file, reported by ``commit()``.
    private var flushError: SatchelError?
    /// With ``DownloadDurability/synced``: the file offset up to which writeback to the disk has
    /// been started, and whether to go on starting it (see ``startWriteback()``).
    private var writebackStarted: Int64 = 0
    private var startsWriteback: Bool
    /// Writeback is started every this many bytes.
    static let writebackStep: Int64 = 8 << 20
    /// The bytes on disk this response continues (0 unless it is a matching 206).
    private(set) var resumedFrom: Int64 = 0
    /// Body bytes written by this response.
    private(set) var written: Int64 = 0
    /// Whether this response's body goes to the file.
    private(set) var writesFile = false
    /// The start of a body that did not go to the file (for errors).
    private(set) var capturedBody: [UInt8] = []

    init(
        destination: String, url: String, requestedOffset: Int64, durability: DownloadDurability,
        isFinal: @escaping (HTTPResponse) -> Bool
    ) {
        self.destination = destination
        self.url = url
        self.requestedOffset = requestedOffset
        self.durability = durability
        self.isFinal = isFinal
        startsWriteback = durability == .synced
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    var initialOffset: Int64 { resumedFrom }

    func begin(_ response: HTTPResponse) throws(SatchelError) {
        let status = response.status.code
        guard isFinal(response), status == 200 || status == 206 else { return }
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC
        if status == 206 {
            guard let header = response.headerFields[.contentRange], let range = try? ContentRange(parsing: header),
                range.range?.lowerBound == requestedOffset, requestedOffset > 0
            else {
                throw SatchelError(
                    .networkFailure,
                    "\(url): the server answered 206 with Content-Range \(response.headerFields[.contentRange] ?? "(none)"), not the range from byte \(requestedOffset) that was asked for; the partial file is unchanged"
                )
            }
            resumedFrom = requestedOffset
            writebackStarted = requestedOffset
            flags |= O_APPEND
        } else {
            flags |= O_TRUNC
        }
        let partial = ResumeData.partialPath(for: destination)
        descriptor = open(partial, flags, 0o644)
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot open \(partial) for writing: \(String(cString: strerror(errno)))")
        }
        writesFile = true
        let record = ResumeData(
            url: url, entityTag: response.headerFields[.eTag], lastModified: response.headerFields[.lastModified])
        try record.store(for: destination)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> Bool {
        guard writesFile else {
            if capturedBody.count < SatchelError.bodyCaptureLimit {
                capturedBody.append(contentsOf: bytes.prefix(SatchelError.bodyCaptureLimit - capturedBody.count))
            }
            return true
        }
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw SatchelError(
                    .io,
                    "writing \(ResumeData.partialPath(for: destination)) failed: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
        written += Int64(bytes.count)
        if startsWriteback, resumedFrom + written - writebackStarted >= Self.writebackStep { startWriteback() }
        return true
    }

    /// Asks the kernel to start writing the bytes received since the last call to the disk,
    /// without waiting (`sync_file_range`): the disk works while the network does, and the
    /// closing `fsync` has little left to write (a synced 100 MB download to disk takes the
    /// time of the transfer plus a short flush instead of the two one after the other). Best
    /// effort: where the file system refuses, the closing `fsync` flushes everything.
    private func startWriteback() {
        let end = resumedFrom + written
        if satchel_file_start_writeback(descriptor, writebackStarted, end - writebackStarted) != 0 {
            startsWriteback = false
        }
        writebackStarted = end
    }

    func finish(error: SatchelError?) {
        guard descriptor >= 0 else { return }
        if error == nil, durability == .synced, fsync(descriptor) != 0 {
            flushError = SatchelError(
                .io,
                "flushing \(ResumeData.partialPath(for: destination)) to the disk failed: \(String(cString: strerror(errno)))"
            )
        }
        close(descriptor)
        descriptor = -1
    }

    /// Moves the complete partial file into place and drops the resume record; with
    /// ``DownloadDurability/synced``, flushes the folder so that the rename is on the disk too.
    /// - Throws: ``SatchelError/Code/io`` when the file could not be flushed (it stays
    ///   `destination.part`, for a resumed download) or moved.
    func commit() throws(SatchelError) {
        if let flushError { throw flushError }
        let partial = ResumeData.partialPath(for: destination)
        guard rename(partial, destination) == 0 else {
            throw SatchelError(.io, "cannot move \(partial) to \(destination): \(String(cString: strerror(errno)))")
        }
        unlink(ResumeData.recordPath(for: destination))
        if durability == .synced { Self.syncFolder(of: destination) }
    }

    /// Flushes the folder holding `path` (its entries: the rename). Best effort: a folder that
    /// cannot be opened or flushed (some file systems refuse) leaves the download as it is.
    private static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
