// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reading input, writing output, and turning errors into one line and an exit code.
enum CommandIO {
    /// Reads a whole file, or standard input for `-`, stopping one byte past `limit` so an
    /// oversized input costs no more memory than the limit.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try readChunks(path) { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > limit {
                throw SatchelError.limitExceeded("maxBodyBytes", limit, "an input of more than \(limit) bytes")
            }
        }
        return bytes
    }

    /// Hands `body` a file, or standard input for `-`, in chunks as `read(2)` returns them (up
    /// to 64 KiB; from a pipe, whatever has arrived), so a reader can act before the input ends.
    static func readChunks(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = path == "-" ? STDIN_FILENO : try open(path)
        defer { if path != "-" { close(descriptor) } }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let name = path == "-" ? "standard input" : path
                throw SatchelError(.io, "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Opens a regular file for reading.
    /// - Throws: ``SatchelError/Code/io`` (exit 66) when it cannot be opened or is a directory.
    static func open(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            Glibc.close(descriptor)
            throw SatchelError(.io, "cannot open \(path): it is a directory")
        }
        return descriptor
    }

    /// Closes a descriptor ``open(_:)`` returned.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// Whether a descriptor is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// Writes bytes to standard error, ignoring failures (progress and diagnostics).
    static func writeError(_ bytes: [UInt8]) {
        try? write(bytes, to: STDERR_FILENO, name: "standard error")
    }

    /// Writes bytes to standard output.
    static func write(_ bytes: [UInt8]) throws {
        try write(bytes, to: STDOUT_FILENO)
    }

    /// Writes bytes to a new or truncated file (mode 0644).
    static func write(_ bytes: [UInt8], toFile path: String) throws {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        try write(bytes, to: descriptor, name: path)
    }

    /// `user:password`, or `user` with the password read from the terminal (not echoed).
    /// - Throws: `UsageError` naming `option` when there is no password and no terminal.
    static func userAndPassword(_ credentials: String, option: String) throws -> (user: String, password: String) {
        if let colon = credentials.firstIndex(of: ":") {
            return (String(credentials[..<colon]), String(credentials[credentials.index(after: colon)...]))
        }
        guard isTerminal(STDIN_FILENO), let typed = getpass("Password for \(credentials): ") else {
            throw UsageError("\(option) needs user:password (the password is asked for only on a terminal)")
        }
        return (credentials, String(cString: typed))
    }

    /// Writes bytes to `path` atomically: into a temporary file beside it, flushed, then renamed
    /// over `path`, so `path` never holds part of the bytes; the temporary file is removed on
    /// failure. The file gets `mode`.
    /// - Throws: ``SatchelError/Code/io`` (exit 74) naming `path`.
    static func writeAtomically(_ bytes: [UInt8], toFile path: String, mode: mode_t = 0o644) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).satchel-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do {
            defer { close(descriptor) }
            try write(bytes, to: descriptor, name: path)
            guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
                throw SatchelError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SatchelError(.io, "cannot write \(path): \(reason)")
        }
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32, name: String = "standard output") throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SatchelError(.io, "cannot write to \(name): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The prefix map of `--namespace p=URI` options.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for one that is not `p=URI`.
    static func namespaces(_ declarations: [String]) throws -> [String: String] {
        var namespaces: [String: String] = [:]
        for declaration in declarations {
            guard let equals = declaration.firstIndex(of: "="), equals != declaration.startIndex else {
                throw SatchelError(.invalidArgument, "--namespace '\(declaration)' is not p=URI")
            }
            namespaces[String(declaration[..<equals])] = String(declaration[declaration.index(after: equals)...])
        }
        return namespaces
    }

    /// Prints `satchel: <error>` on one line of standard error and returns the exit code for it.
    static func fail(_ error: any Error) -> ExitCode {
        if let exit = error as? ExitCode { return exit }
        if let usage = error as? UsageError {
            try? write(Array("satchel: \(usage.description.oneLine)\n".utf8), to: STDERR_FILENO)
            return ExitCode(64)
        }
        let satchelError = error as? SatchelError ?? SatchelError(.internal, "\(error)")
        try? write(Array("satchel: \(satchelError.description.oneLine)\n".utf8), to: STDERR_FILENO)
        return exitCode(for: satchelError)
    }

    /// The documented exit code of an error.
    static func exitCode(for error: SatchelError) -> ExitCode {
        switch error.code {
        case .io: ExitCode(error.message.hasPrefix("cannot write") ? 74 : 66)
        case .unacceptableContentType, .unsupportedFormat: ExitCode(67)
        case .limitExceeded: ExitCode(68)
        case .invalidMediaType: ExitCode(64)
        case .internal: ExitCode(70)
        // Transfers: curl's numbers (docs/CLI.md).
        case .cannotConnect: ExitCode(curlCode(of: error) == 6 || curlCode(of: error) == 5 ? 6 : 7)
        case .timedOut: ExitCode(28)
        case .tlsFailure: ExitCode([60, 77, 83, 90].contains(curlCode(of: error) ?? 0) ? 60 : 35)
        case .tooManyRedirects: ExitCode(47)
        case .networkFailure: ExitCode(56)
        case .unacceptableStatusCode: ExitCode(22)
        case .cancelled: ExitCode(130)
        default: ExitCode(65)
        }
    }

    /// libcurl's code behind a transport error.
    private static func curlCode(of error: SatchelError) -> Int? {
        (error.underlying as? CurlFailure)?.code
    }
}

extension String {
    /// The string with line breaks turned into spaces, for a one-line message.
    var oneLine: String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
