// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Files in a fresh directory only the user can enter (`mkdtemp`, mode 0700), for secrets a
/// server hands to its clients by path.
enum PrivateTemporaryFile {
    /// Writes `bytes` to `name` (mode 0600) in a new private directory under `$TMPDIR` (or `/tmp`).
    ///
    /// - Returns: The file's path.
    /// - Throws: ``FixtureServerError/tlsSetup(_:)`` naming the step that failed.
    static func write(_ bytes: [UInt8], named name: String) throws -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/satchel-serve-XXXXXX".utf8CString)
        guard let directory = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FixtureServerError.tlsSetup("cannot create a directory in \(base): \(lastError())")
        }
        let path = String(cString: directory) + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FixtureServerError.tlsSetup("cannot create \(path): \(lastError())")
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw FixtureServerError.tlsSetup("cannot write \(path): \(lastError())")
            }
            offset += written
        }
        return path
    }

    /// Removes the file at `path` and then its directory, if empty; errors are ignored.
    static func remove(_ path: String) {
        unlink(path)
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            rmdir(String(path[..<slash]))
        }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
