// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Testing

/// A small deterministic random number generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Seeded mutations of valid inputs for the parsers' fuzz-like loops: one to three cuts, byte
/// changes, insertions, deletions or inserted snippets per input.
struct ByteMutator {
    /// Bytes inserted or written over existing ones.
    let alphabet: [UInt8]
    /// Tokens that are interesting to the parser under test.
    let snippets: [String]

    func mutate(_ input: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where !bytes.isEmpty:
                bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &generator)...)
            case 1 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] =
                    alphabet.randomElement(using: &generator) ?? 0
            case 2:
                bytes.insert(
                    alphabet.randomElement(using: &generator) ?? 0,
                    at: Int.random(in: 0...bytes.count, using: &generator))
            case 3 where !bytes.isEmpty:
                bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator))
            default:
                let snippet = Array((snippets.randomElement(using: &generator) ?? "").utf8)
                bytes.insert(contentsOf: snippet, at: Int.random(in: 0...bytes.count, using: &generator))
            }
        }
        return bytes
    }
}

/// The `SatchelError` that `body` throws; records an issue when it returns or throws
/// anything else.
func satchelError<T>(_ body: () throws -> T) -> SatchelError? {
    do {
        let value = try body()
        Issue.record("expected an error, got \(value)")
        return nil
    } catch let error as SatchelError {
        return error
    } catch {
        Issue.record("not a SatchelError: \(error)")
        return nil
    }
}

/// The repository's root folder (this file is Tests/SerializersTests/TestSupport.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Calls `body` with `bytes` in chunks of `chunkSize` bytes (0: all at once), for the readers fed
/// as bytes arrive.
func feedInChunks(_ bytes: [UInt8], chunkSize: Int, _ body: ([UInt8]) throws -> Void) throws {
    let size = chunkSize > 0 ? chunkSize : max(bytes.count, 1)
    var start = 0
    while start < bytes.count {
        let end = min(start + size, bytes.count)
        try body(Array(bytes[start..<end]))
        start = end
    }
}
