// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the repository's `.venv` Python (made by `scripts/setup`) as an independent peer.
public enum VenvPython {
    /// `.venv/bin/python`.
    public static let executable = TestServers.root.appendingPathComponent(".venv/bin/python")

    /// Runs `script` (Python source) with `arguments` in `sys.argv[1:]` and `input` on standard
    /// input.
    ///
    /// - Returns: the exit status and standard output (through a file, so no pipe fills up);
    ///   standard error goes to this process's.
    /// - Throws: `TestServers.StartError` when `.venv` is missing; Foundation's errors when the
    ///   process cannot run.
    public static func run(
        _ script: String, _ arguments: [String] = [], input: [UInt8] = []
    ) throws -> (status: Int32, output: String) {
        try execute(executable.path, ["-c", script] + arguments, input: input)
    }

    /// Runs any `executable` with `arguments` the same way; returns its exit status and standard output.
    public static func execute(
        _ executable: String, _ arguments: [String], input: [UInt8] = []
    ) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestServers.StartError("\(executable) is missing: run scripts/setup")
        }
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-py-\(UUID().uuidString)")
        let inputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-py-\(UUID().uuidString).in")
        try Data().write(to: outputPath)
        try Data(input).write(to: inputPath)
        defer {
            try? FileManager.default.removeItem(at: outputPath)
            try? FileManager.default.removeItem(at: inputPath)
        }
        let status = try spawnAndWait(executable, arguments, input: inputPath.path, output: outputPath.path)
        return (status, try String(contentsOf: outputPath, encoding: .utf8))
    }

    /// Runs `executable` with standard input and output redirected to the files, standard error
    /// inherited, and waits for it with `waitpid`: Foundation's `Process.waitUntilExit()` was seen
    /// to wait for ever on a child that had exited (a zombie nobody reaped) on a loaded machine.
    private static func spawnAndWait(
        _ executable: String, _ arguments: [String], input: String, output: String
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_TRUNC, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw TestServers.StartError("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw TestServers.StartError("waiting for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS, WTERMSIG (macros Swift cannot import).
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
