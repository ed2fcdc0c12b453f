// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

@Suite("Multipart builder: errors before and during streaming")
struct MultipartBuilderErrorTests {
    typealias Support = MultipartBuilderSupport

    /// A form whose part 1, named "upload", is the file at `path`.
    private func form(withFile path: String) throws -> MultipartFormData {
        var form = MultipartFormData(boundary: try Support.boundary())
        form.append("first", name: "field")
        try form.append(fileAt: path, name: "upload")
        return form
    }

    /// The number of bytes before part 1's body.
    private func offsetOfPartOneBody(_ form: MultipartFormData) throws -> Int {
        var copy = MultipartFormData(boundary: form.boundary)
        copy.append("first", name: "field")
        try copy.append([], name: "upload", filename: "file.bin", mediaType: .octetStream)
        return try copy.bytes().count - "\r\n--AaB03x--\r\n".utf8.count
    }

    // MARK: - When the body is built

    @Test("a missing file fails when the body is built, naming the part and the path")
    func missingFile() throws {
        let form = try form(withFile: "/nonexistent/satchel/upload.bin")
        let error = #expect(throws: SatchelError.self) { try form.makeBodyStream() }
        #expect(error?.code == .io)
        #expect(error?.message.hasPrefix("part 1 (\"upload\"): ") == true)
        #expect(error?.message.contains("/nonexistent/satchel/upload.bin") == true)
    }

    @Test("a directory is not a regular file")
    func directoryIsRefused() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        let error = #expect(throws: SatchelError.self) { try form(withFile: directory).makeBodyStream() }
        #expect(error?.code == .io)
        #expect(error?.message.contains("part 1") == true)
        #expect(error?.message.contains("not a regular file") == true)
    }

    @Test("an unreadable file fails when the body is built", .enabled(if: getuid() != 0, "root reads any file"))
    func unreadableFile() throws {
        let path = try Support.temporaryFile([1, 2, 3])
        defer { Support.remove(path) }
        chmod(path, 0)
        let error = #expect(throws: SatchelError.self) { try form(withFile: path).makeBodyStream() }
        #expect(error?.code == .io)
        #expect(error?.message.contains("part 1 (\"upload\"): cannot read") == true)
    }

    // MARK: - Files that change

    @Test("a file removed after the body was built fails when its part is reached")
    func fileRemovedAfterBuilding() throws {
        let path = try Support.temporaryFile(Support.pseudoRandomBytes(10_000, seed: 1))
        defer { Support.remove(path) }
        let form = try form(withFile: path)
        let stream = try form.makeBodyStream()
        Support.remove(path)
        let (bytes, error) = Support.readUntilFailure(stream)
        #expect(error?.code == .io)
        #expect(error?.message.hasPrefix("part 1 (\"upload\"): ") == true)
        #expect(error?.offset == (try offsetOfPartOneBody(form)))
        #expect(bytes.count <= (try offsetOfPartOneBody(form)))
    }

    @Test(
        "a file that shrinks or grows after the body was built fails before sending a wrong length",
        arguments: [5_000, 10_001])
    func fileResizedAfterBuilding(newSize: Int) throws {
        let path = try Support.temporaryFile(Support.pseudoRandomBytes(10_000, seed: 2))
        defer { Support.remove(path) }
        let form = try form(withFile: path)
        let stream = try form.makeBodyStream()
        let length = try #require(stream.length)
        try Data(Support.pseudoRandomBytes(newSize, seed: 3)).write(to: URL(fileURLWithPath: path))
        let (bytes, error) = Support.readUntilFailure(stream)
        #expect(error?.code == .io)
        #expect(error?.message.contains("part 1 (\"upload\")") == true)
        #expect(error?.message.contains("changed size from 10000 to \(newSize)") == true)
        #expect(error?.offset == (try offsetOfPartOneBody(form)))
        #expect(Int64(bytes.count) < length)
        // A failed stream keeps failing instead of ending as if complete.
        #expect(throws: SatchelError.self) { try Support.read(stream, pieceSize: 10) }
    }

    @Test("a file that grows or shrinks while it is being sent fails", arguments: [true, false])
    func fileResizedWhileSending(grows: Bool) throws {
        let path = try Support.temporaryFile(Support.pseudoRandomBytes(100_000, seed: 4))
        defer { Support.remove(path) }
        let form = try form(withFile: path)
        let stream = try form.makeBodyStream()
        var piece = [UInt8](repeating: 0, count: 40_000)
        var sent = 0
        sent += try piece.withUnsafeMutableBytes { try stream.read(into: $0) }  // opens the file
        if grows {
            let descriptor = open(path, O_WRONLY | O_APPEND)
            #expect(descriptor >= 0)
            #expect(write(descriptor, [1, 2, 3], 3) == 3)
            close(descriptor)
        } else {
            #expect(truncate(path, 50_000) == 0)
        }
        let (rest, error) = Support.readUntilFailure(stream, pieceSize: 40_000)
        #expect(error?.code == .io)
        #expect(error?.message.contains("part 1 (\"upload\")") == true)
        #expect(error?.message.contains(grows ? "grew" : "shrank") == true)
        #expect(Int64(sent + rest.count) < (stream.length ?? 0))
    }

    // MARK: - Streams with a declared length

    @Test("a stream that ends before its declared length fails instead of sending a short part")
    func streamEndsEarly() throws {
        var form = MultipartFormData(boundary: try Support.boundary())
        form.append("first", name: "field")
        try form.append(name: "data", length: 1000) { ScriptedStream(Array(repeating: 9, count: 999), pieceSize: 100) }
        let stream = try form.makeBodyStream()
        let (bytes, error) = Support.readUntilFailure(stream, pieceSize: 7)
        #expect(error?.code == .io)
        #expect(error?.message == "part 1 (\"data\"): the part's stream ended after 999 of its declared 1000 bytes")
        // Part 0 is 10 + 46 + 2 + 5 bytes, part 1's head 12 + 45 + 2: its body starts at 122.
        #expect(error?.offset == 122 + 999)
        #expect(bytes.count <= 122 + 999)
        #expect(Int64(bytes.count) < (stream.length ?? 0))
    }

    @Test(
        "a stream that runs past its declared length fails without sending an extra byte",
        arguments: [1, 7, 4096, 65536])
    func streamRunsLong(pieceSize: Int) throws {
        var form = MultipartFormData(boundary: try Support.boundary())
        form.append("first", name: "field")
        try form.append(name: "data", length: 1000) { ScriptedStream(Array(repeating: 9, count: 1001)) }
        form.append("after", name: "last")
        let stream = try form.makeBodyStream()
        let (bytes, error) = Support.readUntilFailure(stream, pieceSize: pieceSize)
        #expect(error?.code == .io)
        #expect(error?.message == "part 1 (\"data\"): the part's stream has more than its declared 1000 bytes")
        #expect(error?.offset == 122 + 1000)
        // Everything up to the declared end of the part may have gone out, never the 1001st byte.
        let header =
            "--AaB03x\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nfirst"
            + "\r\n--AaB03x\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n"
        #expect(bytes.count <= header.utf8.count + 1000)
        #expect(bytes.filter { $0 == 9 }.count <= 1000)
    }

    @Test("a stream that announces another length than the declared one fails when it is made")
    func streamAnnouncesOtherLength() throws {
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(name: "data", length: 10) {
            ScriptedStream(Array(repeating: 1, count: 11), announcedLength: 11)
        }
        let error = #expect(throws: SatchelError.self) { try form.bytes() }
        #expect(error?.message == "part 0 (\"data\"): the part's stream announces 11 bytes but the part declared 10")
        // The part's head is 10 + 45 + 2 bytes.
        #expect(error?.offset == 57)

        #expect(throws: SatchelError.self) {
            try form.append(name: "negative", length: -1) { ByteBodyStream([]) }
        }
    }

    @Test("an error from a stream or its factory names the part and keeps its cause")
    func streamFailures() throws {
        var form = MultipartFormData(boundary: try Support.boundary())
        try form.append(name: "failing", length: nil) { FailingStream(bytesBeforeFailure: 10) }
        let error = #expect(throws: SatchelError.self) { try form.bytes() }
        #expect(error?.code == .io)
        #expect(error?.message == "part 0 (\"failing\"): the part's source failed")
        #expect(error?.underlying is FailingStream.Failure)
        #expect(error?.description.contains("the disk caught fire") == true)

        var factory = MultipartFormData(boundary: try Support.boundary())
        factory.append("x", name: "a")
        try factory.append(name: "refused", length: 5) {
            throw SatchelError(.io, "cannot open the socket")
        }
        let factoryError = #expect(throws: SatchelError.self) { try factory.bytes() }
        #expect(factoryError?.message == "part 1 (\"refused\"): cannot open the socket")
    }

    @Test("errors inside a nested body name both parts")
    func nestedErrors() throws {
        var inner = MultipartFormData(subtype: .mixed, boundary: try Support.boundary("inner"))
        try inner.append(
            MultipartPart(filename: "a.txt", body: .stream(length: 5, makeStream: { ByteBodyStream([1]) })))
        var outer = MultipartFormData(boundary: try Support.boundary())
        outer.append("x", name: "a")
        try outer.append(inner, name: "files")
        let stream = try outer.makeBodyStream()
        let (bytes, error) = Support.readUntilFailure(stream)
        #expect(error?.message.hasPrefix("part 1 (\"files\"): part 0 (\"a.txt\"): the part's stream") == true)
        #expect((error?.offset ?? 0) >= bytes.count)
        #expect(Int64(bytes.count) < (stream.length ?? 0))

        // A missing file in a nested body fails when the outer body is built.
        var missing = MultipartFormData(subtype: .mixed)
        try missing.append(MultipartPart(filename: "x", body: .file(path: "/nonexistent/x")))
        var wrapper = MultipartFormData()
        try wrapper.append(missing, name: "files")
        let buildError = #expect(throws: SatchelError.self) { try wrapper.makeBodyStream() }
        #expect(buildError?.message.hasPrefix("part 0 (\"files\"): part 0 (\"x\"): ") == true)
    }

    @Test("a rewind after a failure starts over cleanly")
    func rewindAfterFailure() throws {
        let path = try Support.temporaryFile(Array(repeating: 5, count: 1000))
        defer { Support.remove(path) }
        let form = try form(withFile: path)
        let stream = try form.makeBodyStream()
        let good = try stream.bytes()
        try Data(Array(repeating: 5, count: 10)).write(to: URL(fileURLWithPath: path))
        #expect(throws: SatchelError.self) { try stream.bytes() }
        try Data(Array(repeating: 5, count: 1000)).write(to: URL(fileURLWithPath: path))
        #expect(try stream.bytes() == good)
    }
}
