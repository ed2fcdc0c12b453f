import Foundation

/// The build products folder the test bundle runs from, and what was built into it.
public enum BuiltProducts {
    /// The folder holding the test bundle (`.build/<triple>/debug`), found from this process's
    /// executable; `.build/debug` of the repository when it cannot be told.
    public static let directory: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("satchel").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return TestServers.root.appendingPathComponent(".build/debug")
    }()

    /// A built product in ``directory``, such as the `satchel` executable.
    public static func file(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }
}
