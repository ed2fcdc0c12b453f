// SPDX-License-Identifier: Apache-2.0
import Glibc
import SerializerRegistry

/// Where a ``CookieStore`` keeps its cookies.
public enum CookieStorage: Sendable, Hashable {
    /// In memory, for the store's lifetime (the default).
    case memory
    /// In memory, and in a cookie file (the Netscape format curl and wget read): loaded when
    /// the store is made — expired cookies dropped, lines that do not parse skipped with a
    /// warning to the event monitors — and written again after every response that set a
    /// cookie and every change from Swift. Written to a temporary file (mode 0600) that is
    /// flushed and renamed over the old one, so a crash or `kill -9` leaves the old file or the
    /// new one, never half of one.
    case file(String)
}

/// Reads and writes cookie files.
enum CookieFile {
    static let header = "# Netscape HTTP Cookie File\n# Written by Satchel. Each line is a cookie.\n"

    /// The most bytes of a cookie file read; a larger file is not read (a warning).
    static let maxFileBytes = 16 << 20

    /// The cookies of the file at `path` that have not expired, and how many lines were
    /// skipped; no cookies when there is no file. Lines are split on the whole file, so a line
    /// of any length is one line (its tail never passes for a cookie of its own).
    /// - Throws: ``SatchelError/Code/io`` when the file exists but cannot be read;
    ///   ``SatchelError/Code/limitExceeded`` past ``maxFileBytes``.
    static func read(_ path: String, now: Int64) throws(SatchelError) -> (cookies: [Cookie], skipped: Int) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return ([], 0) }
            throw SatchelError(.io, "cannot read the cookie file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else {
                throw SatchelError(.io, "cannot read the cookie file \(path): \(String(cString: strerror(errno)))")
            }
            guard bytes.count + count <= maxFileBytes else {
                throw SatchelError.limitExceeded(
                    "cookie file", maxFileBytes, "the cookie file \(path) (more than \(maxFileBytes) bytes)")
            }
            bytes += chunk[0..<count]
        }
        var cookies: [Cookie] = []
        var skipped = 0
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var line = String(decoding: rawLine, as: UTF8.self)
            if line.last == "\r" { line.removeLast() }
            if line.isEmpty || (line.hasPrefix("#") && !line.hasPrefix("#HttpOnly_")) { continue }
            guard let cookie = Cookie(netscapeLine: line) else {
                skipped += 1
                continue
            }
            if (cookie.expires ?? .max) > now { cookies.append(cookie) }
        }
        return (cookies, skipped)
    }

    /// Replaces the file at `path` by one holding `cookies`, atomically.
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be written.
    static func write(_ cookies: [Cookie], to path: String) throws(SatchelError) {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot write the cookie file \(path): \(String(cString: strerror(errno)))")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var text = header
        for cookie in cookies {
            if let line = try? cookie.netscapeLine() { text += line + "\n" }
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let flushed = fchmod(descriptor, 0o600) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, flushed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SatchelError(.io, "cannot write the cookie file \(path): \(reason)")
        }
    }
}
