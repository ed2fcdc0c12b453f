// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The build products folder the test bundle runs from, and the `satchel` executable.
public enum BuiltProducts {
    /// The folder holding the test bundle (`.build/<triple>/debug`), found from this process's
    /// executable.
    public static let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    /// A built product in ``directory``, such as the C library.
    public static func file(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// The `satchel` executable: `$SATCHEL_EXECUTABLE`, else beside the test bundle (Tools' own
    /// tests, and the library's in `scripts/test`, which builds both packages into one folder:
    /// scripts/lib/build.bash), else Tools' own debug build (`swift build --package-path Tools`).
    public static let satchel: URL = {
        if let path = ProcessInfo.processInfo.environment["SATCHEL_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let beside = file("satchel")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return TestServers.root.appendingPathComponent("Tools/.build/debug/satchel")
    }()
}
