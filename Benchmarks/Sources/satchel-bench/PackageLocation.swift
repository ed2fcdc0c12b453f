// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Where the Benchmarks package and the repository it sits in are on disk.
enum PackageLocation {
    /// `Benchmarks/`: three levels above this file (`Sources/satchel-bench/PackageLocation.swift`).
    static var benchmarksDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // satchel-bench
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
    }

    /// The repository root (the Satchel package).
    static var repositoryDirectory: URL {
        benchmarksDirectory.deletingLastPathComponent()
    }
}
