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
        let descriptor: Int32
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else {
                throw SatchelError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
            }
        }
        defer { if path != "-" { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let name = path == "-" ? "standard input" : path
                throw SatchelError(.io, "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit {
                throw SatchelError.limitExceeded("maxBodyBytes", limit, "an input of more than \(limit) bytes")
            }
        }
    }

    /// Writes bytes to standard output.
    static func write(_ bytes: [UInt8]) throws {
        try write(bytes, to: STDOUT_FILENO)
    }

    /// Writes bytes to a new or truncated file (mode 0644).
    static func write(_ bytes: [UInt8], toFile path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw SatchelError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        try write(bytes, to: descriptor, name: path)
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

    /// Prints `satchel: <error>` on one line of standard error and returns the exit code for it.
    static func fail(_ error: any Error) -> ExitCode {
        let satchelError = error as? SatchelError ?? SatchelError(.internal, "\(error)")
        let line = String(satchelError.description.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        try? write(Array("satchel: \(line)\n".utf8), to: STDERR_FILENO)
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
        default: ExitCode(65)
        }
    }
}
