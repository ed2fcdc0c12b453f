// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// The target this process runs, chosen once by ``fuzzInitialize(_:_:)`` before any input.
///
/// libFuzzer calls both entry points from its one fuzzing thread, so the variable is only
/// written before the first input and only read afterwards.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// libFuzzer's start-up hook: picks the target from a `--target=NAME` argument (removed from
/// `argv` so libFuzzer does not see it) or from the `SATCHEL_FUZZ_TARGET` environment variable.
/// An unknown or missing name prints the list of targets and exits with status 2;
/// `SATCHEL_FUZZ_LIST=1` prints the targets (name, tab, summary) and exits with status 0.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> Int32 {
    if getenv("SATCHEL_FUZZ_LIST") != nil {
        for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        exit(0)
    }
    var name = getenv("SATCHEL_FUZZ_TARGET").map { String(cString: $0) }
    let prefix = "--target="
    var kept = 0
    for index in 0..<Int(argc.pointee) {
        guard let argument = argv.pointee[index] else { continue }
        let text = String(cString: argument)
        if text.hasPrefix(prefix) {
            name = String(text.dropFirst(prefix.count))
        } else {
            argv.pointee[kept] = argument
            kept += 1
        }
    }
    argv.pointee[kept] = nil
    argc.pointee = Int32(kept)

    guard let name, let target = FuzzTarget.named(name) else {
        let known = FuzzTarget.all.map(\.name).joined(separator: " ")
        FuzzCheck.report("satchel-fuzz: pick a target with --target=NAME or SATCHEL_FUZZ_TARGET (one of: \(known))")
        exit(2)
    }
    selectedTarget = target
    return 0
}

/// libFuzzer's per-input hook: runs the selected target on one input. Returns 0 (keep the input
/// if it is interesting); a bug traps inside the target, so libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selectedTarget else { return 0 }
    let input = FuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    target.run(input)
    return 0
}
