// SPDX-License-Identifier: Apache-2.0
// satchel-bench: Satchel's JSON and form speed against Foundation and json-c, side by side in
// one run, reported as ratios. See BenchmarkOptions for the command line.
import Foundation

let options: BenchmarkOptions
do {
    options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    if case .usage(let message) = error, message.isEmpty {
        print(BenchmarkOptions.usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("satchel-bench: \(error)\n\(BenchmarkOptions.usage)\n".utf8))
    exit(2)
}

do {
    let report = try BenchmarkReport.run(options: options)
    FileHandle.standardOutput.write(Data((report + "\n").utf8))
    if let path = options.markdownPath {
        try Data((report + "\n").utf8).write(to: URL(fileURLWithPath: path))
        Progress.note("wrote \(path)")
    }
} catch {
    FileHandle.standardError.write(Data("satchel-bench: \(error)\n".utf8))
    exit(1)
}
