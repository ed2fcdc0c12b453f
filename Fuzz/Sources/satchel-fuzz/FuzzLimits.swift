// SPDX-License-Identifier: Apache-2.0
import Satchel

/// Limits small enough that no input can make a run use much memory or time, and low enough
/// that the fuzzer reaches every limit check.
enum FuzzLimits {
    /// 1 MiB bodies, depth 32, 64 KiB strings, 256 pairs and parts, 2 KiB part headers,
    /// 64 kilopixels, 256 entity expansions.
    static let tight = Limits(
        maxBodyBytes: 1 << 20, maxDepth: 32, maxStringBytes: 1 << 16, maxPairs: 256, maxParts: 256,
        maxPartHeaderBytes: 2048, maxImagePixels: 1 << 16, maxEntityExpansions: 256)

    /// ``tight``, with records of at most 4 KiB and at most 1 000 of them.
    static let records: Limits = {
        var limits = tight
        limits.maxRecordBytes = 4096
        limits.maxRecords = 1000
        return limits
    }()
}
