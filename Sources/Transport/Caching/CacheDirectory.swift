// SPDX-License-Identifier: Apache-2.0
import Glibc
import SerializerRegistry
import Synchronization

/// The cache's entries on disk: one file per entry, named by the SHA-256 of its key, written to
/// a temporary file and renamed into place, so that a reader (another session, another
/// process, the next process after a `kill -9`) sees the old entry or the new one, never a
/// torn one. A file is checked — its framing, its length, the checksums of its metadata and
/// its body — before anything of it is served; one that fails is deleted.
///
/// File layout: `SATCHC01`, the body, the metadata (``CachedEntry/encoded``), then a trailer of
/// four little-endian `UInt64`s (body length, metadata length, body checksum, metadata
/// checksum) and `SATCHEND`.
///
/// The directory is made with mode 0700 and files with 0600; entries are opened with
/// `O_NOFOLLOW`, so a symbolic link put in the directory is never followed, and names are
/// hexadecimal digests, so no key can name a path outside it. Writes are not synced: a crash
/// of the process loses nothing written, and a power failure that leaves a file short or
/// zeroed leaves one the checks refuse.
final class CacheDirectory: Sendable {
    static let magic = Array("SATCHC01".utf8)
    static let trailerMagic = Array("SATCHEND".utf8)
    static let trailerSize = 40

    let path: String
    let capacity: Int64
    /// File name → (size, last use): what this process knows of the directory, for eviction.
    private let index: Mutex<[String: (size: Int64, lastUse: UInt64)]>
    private let clock = Atomic<UInt64>(0)

    /// Opens (making it, mode 0700, when missing) the directory at `path`.
    /// - Throws: ``SatchelError/Code/io`` when it cannot be made or is not a directory.
    init(path: String, capacity: Int64) throws(SatchelError) {
        self.path = path
        self.capacity = capacity
        try Self.makeDirectory(path)
        var entries: [(name: String, size: Int64, modified: Int)] = []
        for name in Self.fileNames(in: path) {
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasPrefix(".tmp-") {
                // Left by a process that died while writing; one still being written is younger.
                if time(nil) - info.st_mtim.tv_sec > 600 { unlink(path + "/" + name) }
            } else if name.hasSuffix(".entry") {
                entries.append((name, Int64(info.st_size), info.st_mtim.tv_sec))
            }
        }
        entries.sort { $0.modified < $1.modified }
        var known: [String: (Int64, UInt64)] = [:]
        for (order, entry) in entries.enumerated() { known[entry.name] = (entry.size, UInt64(order + 1)) }
        index = Mutex(known)
        clock.store(UInt64(entries.count + 1), ordering: .relaxed)
    }

    private static func makeDirectory(_ path: String) throws(SatchelError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw SatchelError(.io, "cannot make the cache directory \(path): \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw SatchelError(.io, "the cache directory \(path) is not a directory")
        }
    }

    /// The file name of the entry for `key`.
    static func fileName(for key: String) -> String { digest(key) + ".entry" }

    /// The SHA-256 of `key` in hexadecimal: what the cache's file names are made of.
    static func digest(_ key: String) -> String {
        SHA256.hash(Array(key.utf8)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Bytes the entries this process knows of take.
    var usage: Int64 { index.withLock { $0.values.reduce(0) { $0 + $1.size } } }

    /// The stored entry for `key` with its body, checked; `nil` when there is none or it fails
    /// a check (it is then deleted). The body stays in its file, read as it is served.
    func read(_ key: String) -> (CachedEntry, CachedBody)? {
        let name = Self.fileName(for: key)
        let file = path + "/" + name
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno != ENOENT { unlink(file) }  // a symbolic link, or a file not ours
            forget(name)
            return nil
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0,
            let (entry, body) = Self.readChecked(descriptor, size: Int64(info.st_size)),
            entry.key == key
        else {
            unlink(file)
            forget(name)
            return nil
        }
        touch(name, descriptor: descriptor, size: Int64(info.st_size))
        return (entry, body)
    }

    /// Checks an entry file's framing, metadata and body checksum; the entry and its body
    /// (which reads through a descriptor of its own).
    private static func readChecked(_ descriptor: Int32, size: Int64) -> (CachedEntry, CachedBody)? {
        let framing = Int64(magic.count + trailerSize)
        guard size >= framing, let head = readExactly(descriptor, count: magic.count, at: 0), head == magic,
            let trailer = readExactly(descriptor, count: trailerSize, at: size - Int64(trailerSize)),
            Array(trailer.suffix(trailerMagic.count)) == trailerMagic
        else { return nil }
        func word(_ index: Int) -> UInt64 {
            trailer.withUnsafeBytes {
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
            }
        }
        let (bodyLength, metadataLength) = (word(0), word(1))
        guard bodyLength <= UInt64(size), metadataLength <= UInt64(size),
            UInt64(framing) + bodyLength + metadataLength == UInt64(size),
            let metadata = readExactly(
                descriptor, count: Int(metadataLength), at: Int64(magic.count) + Int64(bodyLength)),
            CacheChecksum.of(metadata) == word(3),
            let entry = CachedEntry(encoded: metadata, bodyLength: Int64(bodyLength), bodyChecksum: word(2))
        else { return nil }
        let own = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { return nil }
        let body = CachedBody(.file(descriptor: own, offset: Int64(magic.count), length: Int64(bodyLength)))
        return body.checksum() == word(2) ? (entry, body) : nil
    }

    private static func readExactly(_ descriptor: Int32, count: Int, at offset: Int64) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + Int64(done)))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    /// Starts writing a new entry's body to a temporary file in the directory.
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be made.
    func makeWriter() throws(SatchelError) -> Writer {
        let (descriptor, temporary) = try makeTemporaryFile()
        let writer = Writer(directory: self, descriptor: descriptor, temporaryPath: temporary)
        writer.append(Self.magic)
        return writer
    }

    /// Deletes the entry for `key`, if any.
    func remove(_ key: String) {
        let name = Self.fileName(for: key)
        unlink(path + "/" + name)
        forget(name)
    }

    /// Deletes every entry (and temporary file) in the directory.
    func removeAll() {
        for name in Self.fileNames(in: path)
        where name.hasSuffix(".entry") || name.hasSuffix(".vary") || name.hasPrefix(".tmp-") {
            unlink(path + "/" + name)
        }
        index.withLock { $0.removeAll() }
    }

    /// A new file `.tmp-XXXXXX` in the directory (mode 0600, closed on exec), open for writing,
    /// and its path: where every entry and record is written before it is renamed into place.
    /// - Throws: ``SatchelError/Code/io`` when it cannot be made.
    func makeTemporaryFile() throws(SatchelError) -> (descriptor: Int32, path: String) {
        var template = Array((path + "/.tmp-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot write to the cache directory \(path): \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, 0o600)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return (descriptor, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The names in the directory at `path` (none when it cannot be read).
    private static func fileNames(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let item = readdir(directory) {
            names.append(
                withUnsafeBytes(of: item.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            )
        }
        return names
    }

    private func forget(_ name: String) {
        _ = index.withLock { $0.removeValue(forKey: name) }
    }

    /// Marks `name` used now (for this process's eviction order and, through the file's
    /// modification time, the next process's).
    private func touch(_ name: String, descriptor: Int32, size: Int64) {
        let now = clock.add(1, ordering: .relaxed).newValue
        index.withLock { index in index[name] = (index[name]?.size ?? size, now) }
        futimens(descriptor, nil)
    }

    /// Puts a finished temporary file in place as `name`, then evicts the least recently used
    /// entries until the directory is within its capacity.
    fileprivate func commit(_ temporary: String, as name: String, size: Int64) -> Bool {
        guard rename(temporary, path + "/" + name) == 0 else {
            unlink(temporary)
            return false
        }
        let now = clock.add(1, ordering: .relaxed).newValue
        let evicted = index.withLock { index -> [String] in
            index[name] = (size, now)
            var total = index.values.reduce(0) { $0 + $1.size }
            var evicted: [String] = []
            for (victim, value) in index.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > capacity {
                guard victim != name else { continue }
                total -= value.size
                evicted.append(victim)
                index[victim] = nil
            }
            if total > capacity { index[name] = nil; evicted.append(name) }
            return evicted
        }
        for victim in evicted { unlink(path + "/" + victim) }
        return !evicted.contains(name)
    }
}

extension CacheDirectory {
    /// Writes one entry: the body as it arrives, then the metadata and trailer; ``commit(_:)``
    /// renames it into place, ``discard()`` deletes it. Used by one thread at a time.
    // @unchecked: a writer belongs to one transfer, whose sink calls it from the thread driving the transfer, one at a time.
    final class Writer: @unchecked Sendable {
        private let directory: CacheDirectory
        private var descriptor: Int32
        private let temporaryPath: String
        private var checksum = CacheChecksum()
        private(set) var bodyLength: Int64 = 0
        private var failed = false

        fileprivate init(directory: CacheDirectory, descriptor: Int32, temporaryPath: String) {
            self.directory = directory
            self.descriptor = descriptor
            self.temporaryPath = temporaryPath
        }

        deinit { discard() }

        fileprivate func append(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { write($0) }
        }

        private func write(_ bytes: UnsafeRawBufferPointer) {
            var done = 0
            while !failed && done < bytes.count {
                let wrote = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if wrote < 0 && errno == EINTR { continue }
                if wrote <= 0 { failed = true }
                done += max(wrote, 0)
            }
        }

        /// Adds body bytes.
        func appendBody(_ bytes: UnsafeRawBufferPointer) {
            checksum.update(bytes)
            bodyLength += Int64(bytes.count)
            write(bytes)
        }

        /// Adds the metadata and trailer and renames the file into place.
        /// - Returns: Whether the entry is now stored (not when a write failed or it was evicted at once).
        func commit(_ entry: CachedEntry) -> Bool {
            guard descriptor >= 0 else { return false }
            var entry = entry
            entry.bodyLength = bodyLength
            entry.bodyChecksum = checksum.value
            let metadata = entry.encoded
            append(metadata)
            var trailer: [UInt8] = []
            for word in [UInt64(bodyLength), UInt64(metadata.count), entry.bodyChecksum, CacheChecksum.of(metadata)] {
                withUnsafeBytes(of: word.littleEndian) { trailer += $0 }
            }
            append(trailer + CacheDirectory.trailerMagic)
            close(descriptor)
            descriptor = -1
            guard !failed else {
                unlink(temporaryPath)
                return false
            }
            let size = Int64(CacheDirectory.magic.count + CacheDirectory.trailerSize + metadata.count) + bodyLength
            return directory.commit(temporaryPath, as: CacheDirectory.fileName(for: entry.key), size: size)
        }

        /// Deletes the temporary file; does nothing after ``commit(_:)``.
        func discard() {
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
            unlink(temporaryPath)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
