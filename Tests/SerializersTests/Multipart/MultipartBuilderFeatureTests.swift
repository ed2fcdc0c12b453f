// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@Suite("Multipart builder: progress, throttling, SHA-256, output, serializer")
struct MultipartBuilderFeatureTests {
    typealias Support = MultipartBuilderSupport

    /// A form with a field, a 150 000-byte file, an empty part and a stream.
    private func sampleForm(directory: String, streamLength: Int64? = 5000) throws -> MultipartFormData {
        let path = directory + "/photo.jpg"
        try Data(Support.pseudoRandomBytes(150_000, seed: 11)).write(to: URL(fileURLWithPath: path))
        var form = MultipartFormData(boundary: try Support.boundary())
        form.append("Ann", name: "user")
        try form.append(fileAt: path, name: "photo")
        try form.append([], name: "empty")
        let content = Support.pseudoRandomBytes(5000, seed: 12)
        try form.append(name: "log", length: streamLength) { ScriptedStream(content, pieceSize: 999) }
        return form
    }

    // MARK: - Progress

    @Test("progress reports every part, its body's bytes and the whole body's, ending at the totals")
    func progressTotals() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        let log = ProgressLog()
        var form = try sampleForm(directory: directory)
        form.progressHandler = log.handler
        let stream = try form.makeBodyStream()
        let body = try Support.read(stream, pieceSize: 4096)
        let reports = log.all
        let total = try #require(stream.length)
        #expect(Int64(body.count) == total)

        #expect(reports.last?.bytesSent == total)
        #expect(reports.allSatisfy { $0.bytesTotal == total })
        #expect(
            zip(reports, reports.dropFirst()).allSatisfy {
                $0.bytesSent <= $1.bytesSent && $0.partIndex <= $1.partIndex
            })
        #expect(Set(reports.map(\.partIndex)) == [0, 1, 2, 3])
        let expectedSizes: [Int64] = [3, 150_000, 0, 5000]
        for (index, size) in expectedSizes.enumerated() {
            let last = reports.last { $0.partIndex == index }
            #expect(last?.partBytesSent == size, "part \(index)")
            #expect(last?.partBytesTotal == size, "part \(index)")
            let mine = reports.filter { $0.partIndex == index }.map(\.partBytesSent)
            #expect(mine == mine.sorted(), "part \(index)")
        }
        // The file's bytes arrive in several reports.
        #expect(reports.filter { $0.partIndex == 1 }.count > 10)

        // After a rewind the counts start over.
        try stream.rewind()
        let before = log.all.count
        _ = try Support.read(stream, pieceSize: 65536)
        #expect(log.all[before].bytesSent <= 65536)
        #expect(log.all.last?.bytesSent == total)
    }

    @Test("progress of a body of unknown length has no totals where unknown")
    func progressUnknownTotals() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        let log = ProgressLog()
        var form = try sampleForm(directory: directory, streamLength: nil)
        form.progressHandler = log.handler
        let body = try Support.read(try form.makeBodyStream(), pieceSize: 1000)
        let reports = log.all
        #expect(reports.allSatisfy { $0.bytesTotal == nil })
        #expect(reports.last?.bytesSent == Int64(body.count))
        #expect(reports.last { $0.partIndex == 3 }?.partBytesTotal == nil)
        #expect(reports.last { $0.partIndex == 3 }?.partBytesSent == 5000)
        #expect(reports.last { $0.partIndex == 1 }?.partBytesTotal == 150_000)
    }

    // MARK: - Throttling

    @Test("a throttle caps every read at its packet size without changing the bytes")
    func throttleCapsPackets() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        var form = try sampleForm(directory: directory)
        let reference = try form.bytes()
        form.throttle = try MultipartThrottle(packetSize: 1000, delay: .zero)
        let stream = try form.makeBodyStream()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var body: [UInt8] = []
        while true {
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { break }
            #expect(count <= 1000)
            body += buffer[0..<count]
        }
        #expect(body == reference)
        // A tiny delay still yields the same bytes.
        let slow = try form.makeBodyStream()
        slow.throttle = try MultipartThrottle(packetSize: 60_000, delay: .microseconds(1))
        #expect(try slow.bytes() == reference)
        #expect(throws: SatchelError.self) { try MultipartThrottle(packetSize: 0, delay: .zero) }
        #expect(throws: SatchelError.self) { try MultipartThrottle(packetSize: 1, delay: .seconds(-1)) }
        #expect(MultipartThrottle.suggestedPacketSize == 16384)
    }

    // MARK: - SHA-256

    @Test("the running SHA-256 equals swift-crypto's hash of the bytes produced")
    func runningSHA256() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        var form = try sampleForm(directory: directory)
        form.computesSHA256 = true
        let stream = try form.makeBodyStream()
        #expect(stream.sha256Digest == nil)
        let body = try Support.read(stream, pieceSize: 7777)
        let expected = try sha256sum(body)
        #expect(stream.sha256Digest == expected)
        #expect(stream.sha256Hex == expected.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
        try stream.rewind()
        #expect(stream.sha256Digest == nil)
        _ = try Support.read(stream, pieceSize: 1)
        #expect(stream.sha256Digest == expected)

        // The option can be set on the stream before its first read.
        let late = try MultipartFormData(boundary: form.boundary).makeBodyStream()
        late.computesSHA256 = true
        let lateBody = try late.bytes()
        #expect(try late.sha256Digest == sha256sum(lateBody))

        // Without the option there is no digest; a body of unknown length hashes too.
        var plain = form
        plain.computesSHA256 = false
        let plainStream = try plain.makeBodyStream()
        _ = try plainStream.bytes()
        #expect(plainStream.sha256Digest == nil)
        var unknown = try sampleForm(directory: directory, streamLength: nil)
        unknown.computesSHA256 = true
        let unknownStream = try unknown.makeBodyStream()
        let unknownBody = try unknownStream.bytes()
        #expect(try unknownStream.sha256Digest == sha256sum(unknownBody))
    }

    // MARK: - Output

    @Test("write(to:) writes the whole body and bytes() returns it")
    func writeToFileAndMemory() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        var form = try sampleForm(directory: directory)
        form.computesSHA256 = true
        let target = directory + "/body.multipart"
        try Data("old contents".utf8).write(to: URL(fileURLWithPath: target))
        let stream = try form.write(to: target)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(written == (try form.bytes()))
        #expect(stream.bytesSent == Int64(written.count))
        #expect(try stream.sha256Digest == sha256sum(written))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)

        let limited = #expect(throws: SatchelError.self) { try form.bytes(limit: 100) }
        #expect(limited?.code == .limitExceeded)
    }

    @Test("write(to:) leaves nothing behind, and the old file untouched, when a part fails")
    func writeLeavesNothingOnError() throws {
        let directory = try Support.temporaryDirectory()
        defer { Support.remove(directory) }
        var form = MultipartFormData()
        form.append("x", name: "a")
        try form.append(Array(repeating: 7, count: 200_000), name: "big", filename: "big.bin")
        try form.append(name: "short", length: 10_000) { ScriptedStream(Array(repeating: 1, count: 9_999)) }

        let fresh = directory + "/fresh.bin"
        let error = #expect(throws: SatchelError.self) { try form.write(to: fresh) }
        #expect(error?.message.contains("part 2 (\"short\")") == true)
        #expect(!FileManager.default.fileExists(atPath: fresh))

        let existing = directory + "/existing.bin"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        #expect(throws: SatchelError.self) { try form.write(to: existing) }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["existing.bin"])

        let unwritable = #expect(throws: SatchelError.self) { try form.write(to: directory + "/missing/dir/x") }
        #expect(unwritable?.code == .io)
    }

    // MARK: - Serializer

    @Test("the multipart serializer writes parameters as parts with its boundary in the Content-Type")
    func serializer() throws {
        let serializer = MultipartRequestSerializer(boundary: try Support.boundary())
        #expect(serializer.name == "multipart")
        #expect(serializer.contentType.essence == "multipart/form-data")
        #expect(serializer.contentType[parameter: "boundary"] == "AaB03x")
        let body = try serializer.encodeBody(["b": "2", "a": ["x": 1]])
        #expect(
            Support.text(body) == "--AaB03x\r\nContent-Disposition: form-data; name=\"a[x]\"\r\n\r\n1\r\n"
                + "--AaB03x\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--AaB03x--\r\n")
        #expect(try serializer.makeBodyStream(["b": "2", "a": ["x": 1]]).bytes() == body)

        let request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/upload")
        let serialized = try serializer.serialize(["b": "2", "a": ["x": 1]], into: request)
        #expect(serialized.body == body)
        #expect(serialized.request.headerFields[.contentType] == "multipart/form-data; boundary=AaB03x")
        #expect(serialized.request.headerFields[.userAgent] != nil)

        let random = MultipartRequestSerializer()
        let randomBody = Support.text(try random.encodeBody(["a": "1"]))
        #expect(randomBody.hasPrefix("--\(random.boundary.value)\r\n"))
        #expect(random.contentType[parameter: "boundary"] == random.boundary.value)
        #expect(MultipartRequestSerializer().boundary != random.boundary)

        var form = try serializer.formData(from: ["a": "1"])
        try form.append([1, 2, 3], name: "file", filename: "f.bin")
        #expect(form.parts.count == 2)
        #expect(form.boundary == serializer.boundary)

        let error = #expect(throws: SatchelError.self) { try serializer.encodeBody("text") }
        #expect(error?.code == .invalidArgument)
    }
}

/// The SHA-256 digest of `bytes` by coreutils' `sha256sum`, an implementation independent of
/// Satchel's.
func sha256sum(_ bytes: [UInt8]) throws -> [UInt8] {
    let (status, output) = try VenvPython.execute("/usr/bin/sha256sum", ["-"], input: bytes)
    guard status == 0 else { throw SatchelError(.internal, "sha256sum exited with \(status)") }
    let hex = Array(output.prefix(64).utf8)
    return stride(from: 0, to: hex.count, by: 2).map {
        UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}
