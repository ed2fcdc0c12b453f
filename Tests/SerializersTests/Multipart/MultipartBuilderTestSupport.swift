// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Synchronization
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Helpers shared by the multipart builder tests.
enum MultipartBuilderSupport {
    /// A fixed boundary for exact layouts.
    static func boundary(_ text: String = "AaB03x") throws -> MultipartBoundary {
        try MultipartBoundary(text)
    }

    /// A new empty temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-mpb-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `bytes` to a new file in a new temporary directory and returns its path.
    static func temporaryFile(_ bytes: [UInt8], name: String = "file.bin") throws -> String {
        let path = try temporaryDirectory() + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Removes a file or directory, ignoring errors, and the private directory that
    /// ``temporaryFile(_:name:)`` made for a file.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        if parent.lastPathComponent.hasPrefix("satchel-mpb-") {
            try? FileManager.default.removeItem(at: parent)
        }
    }

    /// Deterministic bytes that look random.
    static func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// Reads a stream to its end in pieces of `size` bytes, checking the read contract.
    static func read(_ stream: any BodyStream, pieceSize size: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: size)
        while true {
            let count = try piece.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { return result }
            #expect(count >= 1 && count <= size)
            result.append(contentsOf: piece[0..<count])
        }
    }

    /// Reads until the stream fails, returning the bytes yielded before the error and the error.
    static func readUntilFailure(
        _ stream: any BodyStream, pieceSize: Int = 4096
    ) -> (bytes: [UInt8], error: SatchelError?) {
        var result: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: pieceSize)
        while true {
            do {
                let count = try piece.withUnsafeMutableBytes { try stream.read(into: $0) }
                if count == 0 { return (result, nil) }
                result.append(contentsOf: piece[0..<count])
            } catch let error as SatchelError {
                return (result, error)
            } catch {
                return (result, SatchelError(.internal, "not a SatchelError: \(error)"))
            }
        }
    }

    /// The body as text, for layout comparisons.
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// A stream over bytes that yields at most `pieceSize` bytes per read and announces `announcedLength`.
final class ScriptedStream: BodyStream {
    private let bytes: [UInt8]
    private let pieceSize: Int
    private var position = 0
    let length: Int64?

    init(_ bytes: [UInt8], pieceSize: Int = .max, announcedLength: Int64? = nil) {
        self.bytes = bytes
        self.pieceSize = pieceSize
        self.length = announcedLength
    }

    var isRewindable: Bool { false }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, pieceSize, bytes.count - position)
        guard count > 0 else { return 0 }
        for index in 0..<count { buffer[index] = bytes[position + index] }
        position += count
        return count
    }

    func rewind() throws {
        throw SatchelError(.invalidArgument, "a scripted stream cannot rewind")
    }
}

/// A stream that fails with a non-Satchel error after `bytesBeforeFailure` bytes.
final class FailingStream: BodyStream {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "the disk caught fire" }
    }

    private var remaining: Int

    init(bytesBeforeFailure: Int) {
        remaining = bytesBeforeFailure
    }

    var length: Int64? { nil }
    var isRewindable: Bool { false }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard remaining > 0 else { throw Failure() }
        let count = min(buffer.count, remaining)
        for index in 0..<count { buffer[index] = UInt8(ascii: "x") }
        remaining -= count
        return count
    }

    func rewind() throws {}
}

/// Collects progress reports from any thread.
final class ProgressLog: Sendable {
    private let reports = Mutex<[MultipartProgress]>([])

    var handler: @Sendable (MultipartProgress) -> Void {
        { [self] report in reports.withLock { $0.append(report) } }
    }

    var all: [MultipartProgress] { reports.withLock { $0 } }
}
