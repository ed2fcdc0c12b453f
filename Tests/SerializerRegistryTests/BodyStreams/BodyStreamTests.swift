// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Testing

@Suite struct BodyStreamTests {
    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-body-\(UUID().uuidString)")
            .path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func readInPieces(_ stream: any BodyStream, size: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: size)
        while true {
            let count = try piece.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { return result }
            #expect(count <= size)
            result.append(contentsOf: piece[0..<count])
        }
    }

    @Test func bytesStreamReadsAndRewinds() throws {
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        let stream = ByteBodyStream(bytes)
        #expect(stream.length == 1000)
        #expect(try readInPieces(stream, size: 7) == bytes)
        #expect(try readInPieces(stream, size: 7).isEmpty)
        try stream.rewind()
        #expect(try stream.readAll() == bytes)
        try stream.rewind()
        #expect(throws: SatchelError.self) { try stream.readAll(limit: 999) }
    }

    /// A stream whose bytes are always there reads them without ever saying it would block.
    @Test func readAvailableOfAReadyStreamIsItsReads() throws {
        let stream = ByteBodyStream([1, 2, 3, 4, 5])
        var piece = [UInt8](repeating: 0, count: 3)
        #expect(try piece.withUnsafeMutableBytes { try stream.readAvailable(into: $0) } == .bytes(3))
        #expect(try piece.withUnsafeMutableBytes { try stream.readAvailable(into: $0) } == .bytes(2))
        #expect(piece[0..<2] == [4, 5])
        #expect(try piece.withUnsafeMutableBytes { try stream.readAvailable(into: $0) } == .end)
    }

    @Test func fileStreamIsSizedUpFrontAndRewinds() throws {
        let bytes = (0..<70_000).map { UInt8($0 % 253) }
        let path = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try FileBodyStream(path: path)
        #expect(stream.length == 70_000)
        #expect(try readInPieces(stream, size: 4096) == bytes)
        try stream.rewind()
        #expect(try readInPieces(stream, size: 1 << 20) == bytes)
    }

    @Test func fileStreamRefusesWhatItCannotSend() throws {
        let missing = #expect(throws: SatchelError.self) { try FileBodyStream(path: "/nonexistent/satchel") }
        #expect(missing?.code == .io)
        #expect(missing?.message.contains("/nonexistent/satchel") == true)
        let directory = #expect(throws: SatchelError.self) { try FileBodyStream(path: "/tmp") }
        #expect(directory?.message.contains("not a regular file") == true)
    }

    @Test func fileThatChangesSizeFailsInsteadOfSendingAShortBody() throws {
        let path = try temporaryFile([UInt8](repeating: 1, count: 10_000))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let shrunkBeforeOpening = try FileBodyStream(path: path)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let changed = #expect(throws: SatchelError.self) { try shrunkBeforeOpening.readAll() }
        #expect(changed?.message.contains("changed size") == true)

        try Data([UInt8](repeating: 1, count: 10_000)).write(to: URL(fileURLWithPath: path))
        let grows = try FileBodyStream(path: path)
        var piece = [UInt8](repeating: 0, count: 100)
        _ = try piece.withUnsafeMutableBytes { try grows.read(into: $0) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([9, 9]))
        try handle.close()
        let grew = #expect(throws: SatchelError.self) { try grows.readAll() }
        #expect(grew?.message.contains("grew") == true)

        let shrinks = try FileBodyStream(path: path)
        _ = try piece.withUnsafeMutableBytes { try shrinks.read(into: $0) }
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: 500)
        let shrank = #expect(throws: SatchelError.self) { try shrinks.readAll() }
        #expect(shrank?.message.contains("shrank") == true)
    }
}
