// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Chunks of any size give the same parts; large bodies go to temporary files that disappear.
@Suite("Multipart parser: chunking and spilling")
struct MultipartReaderChunkingTests {
    static let chunkSizes = [1, 2, 3, 7, 64, 4096, 0]

    @Test("1-byte, 7-byte, 4 KiB and whole-body chunks give identical parts", arguments: MultipartSamples.names)
    func chunkSizesAgree(name: String) throws {
        let (body, type) = try MultipartSamples.load(name)
        let whole = try parseParts(body, contentType: type)
        #expect(!whole.isEmpty)
        for size in Self.chunkSizes {
            let parts = try parseParts(body, contentType: type, chunkSize: size)
            #expect(parts == whole, "chunks of \(size) bytes")
        }
    }

    @Test("lenient parsing of bare LF bodies does not depend on chunk boundaries")
    func lenientChunks() throws {
        let (body, type) = try MultipartSamples.load("lf-form")
        let options = MultipartReader.Options(lenient: true)
        let whole = try parseParts(body, contentType: type, options: options)
        for size in Self.chunkSizes {
            #expect(
                try parseParts(body, contentType: type, chunkSize: size, options: options) == whole, "chunks of \(size)"
            )
        }
    }

    @Test("parts are returned by the feed that completes them")
    func partsArriveAsTheyComplete() throws {
        let body = bytes(
            "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--B\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--B--"
        )
        let parser = try MultipartReader(boundary: "B")
        let cut = body.count - "\r\n--B--".count - 1  // inside part b's body
        let first = try parser.feed(Array(body[..<cut]))
        #expect(first.map(\.name) == ["a"])
        #expect(parser.partCount == 1)
        #expect(!parser.isComplete)
        let second = try parser.feed(Array(body[cut...]))
        #expect(second.map(\.name) == ["b"])
        #expect(parser.isComplete)
        try parser.finish()
        #expect(parser.bytesConsumed == body.count)
    }

    @Test("the incremental decoder gives the same value as decoding the whole body", arguments: MultipartSamples.names)
    func incrementalDecoderAgrees(name: String) throws {
        let (body, type) = try MultipartSamples.load(name)
        let registry = multipartRegistry()
        let whole = try registry.decode(body, contentType: type)
        let serializer = try #require(registry.responseSerializer(for: type))
        for size in [1, 7, 4096] {
            let decoder = try #require(serializer.makeIncrementalReader(contentType: type, limits: .default))
            var start = 0
            while start < body.count {
                try decoder.feed(Array(body[start..<min(start + size, body.count)]))
                start += size
            }
            #expect(try decoder.finish() == whole, "chunks of \(size)")
        }
    }

    // MARK: - Spilling to temporary files

    /// A fresh folder for spilled bodies, removed afterwards.
    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-spill-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    private func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("bodies over the threshold are spilled with identical bytes; files are 0600 and vanish with the parts")
    func spilledPartsMatchAndVanish() throws {
        let (body, type) = try MultipartSamples.load("curl-form")
        let inMemory = try parseParts(body, contentType: type)
        try withFolder { folder in
            for size in [1, 7, 4096, 0] {
                do {
                    let options = MultipartReader.Options(memoryThreshold: 8, temporaryDirectory: folder)
                    let spilled = try parseParts(body, contentType: type, chunkSize: size, options: options)
                    #expect(try spilled.map { try $0.bytes() } == inMemory.map { try $0.bytes() })
                    #expect(spilled.map(\.size) == inMemory.map(\.size))
                    #expect(spilled.map(\.isSpilled) == inMemory.map { $0.size > 8 })
                    #expect(files(in: folder).count == spilled.filter(\.isSpilled).count)
                    for part in spilled {
                        guard case .file(let file) = part.body else { continue }
                        #expect(file.path.hasPrefix(folder + "/satchel-part-"))
                        var status = stat()
                        #expect(stat(file.path, &status) == 0)
                        #expect(status.st_mode & 0o777 == 0o600)
                        #expect(Int(status.st_size) == part.size)
                    }
                }
                #expect(files(in: folder).isEmpty, "temporary files left after chunks of \(size)")
            }
        }
    }

    @Test("a threshold of 0 spills every non-empty body; empty bodies stay in memory")
    func zeroThreshold() throws {
        let (body, type) = try MultipartSamples.load("chrome-form")
        try withFolder { folder in
            let parts = try parseParts(
                body, contentType: type, options: .init(memoryThreshold: 0, temporaryDirectory: folder))
            #expect(parts.map(\.isSpilled) == parts.map { $0.size > 0 })
            #expect(parts.contains { $0.size == 0 })
        }
    }

    @Test("a spilled part decodes to a $file value that can be read, streamed and saved")
    func spilledValue() throws {
        let payload = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let body =
            bytes("--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n\r\n") + payload
            + bytes("\r\n--B--\r\n")
        let type = try MediaType(parsing: "multipart/form-data; boundary=B")
        try withFolder { folder in
            let saved = folder + "/kept.bin"
            var stream: (any BodyStream)?
            do {
                let serializer = MultipartResponseSerializer(
                    options: .init(memoryThreshold: 1024, temporaryDirectory: folder))
                let element = try #require(
                    multipartElements(try serializer.decode(body, contentType: type, limits: .default)).first)
                guard case .payload(let file as TemporaryFile) = element.value else {
                    Issue.record("not a file: \(element.value)")
                    return
                }
                #expect(file.size == 5000)
                #expect(try file.readAll() == payload)
                #expect(element.value.canonicalForm == ["$file": ["path": .string(file.path), "size": 5000]])
                #expect(element.value.canonicalJSON().contains(#""size":5000"#))
                #expect(throws: SatchelError.self) { try file.readAll(limit: 4999) }
                try file.save(to: saved)
                #expect(throws: SatchelError.self) { try file.save(to: saved) }
                stream = try element.part.makeBodyStream()
            }
            // The stream keeps the file; the saved copy outlives it.
            #expect(try stream?.readAll() == payload)
            #expect(files(in: folder).count == 2)
            stream = nil
            #expect(files(in: folder) == ["kept.bin"])
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: saved))) == payload)
        }
    }

    @Test("an error while a part is being spilled removes its temporary file")
    func errorRemovesPartialFile() throws {
        let body =
            bytes("--B\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n") + [UInt8](repeating: 0x41, count: 10_000)
        try withFolder { folder in
            let parser = try MultipartReader(
                boundary: "B", options: .init(memoryThreshold: 100, temporaryDirectory: folder))
            _ = try parser.feed(body)
            #expect(files(in: folder).count == 1)
            #expect(throws: SatchelError.self) { try parser.finish() }
            #expect(files(in: folder).isEmpty)
        }
    }

    @Test("a 3 MiB file full of near-delimiters parses the same in any chunking, spilled or not")
    func largeBody() throws {
        var payload: [UInt8] = []
        let near = bytes("\r\n--BOUNDAR\r\n--BOUNDARy\r--BOUNDARY\n")
        while payload.count < 3 * 1024 * 1024 {
            payload += near
            payload += (0..<977).map { UInt8(truncatingIfNeeded: $0 * 7 + payload.count) }
        }
        let body =
            bytes(
                "preamble\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n\r\n")
            + payload + bytes("\r\n--BOUNDARY--\r\nepilogue")
        let type = try MediaType(parsing: "multipart/form-data; boundary=BOUNDARY")
        try withFolder { folder in
            let options = MultipartReader.Options(temporaryDirectory: folder)
            for size in [4096, 65_536, 0] {
                let parts = try parseParts(body, contentType: type, chunkSize: size, options: options)
                #expect(parts.count == 1)
                #expect(parts.first?.isSpilled == true)
                #expect(try parts.first?.bytes() == payload)
            }
            #expect(files(in: folder).isEmpty)
        }
    }

    /// Opt-in (`SATCHEL_MULTIPART_MEASURE=GiB`): streams a body with one file part of that many
    /// GiB through the parser in 64 KiB chunks and prints the throughput and the peak memory. Only
    /// memory growth is asserted: the body is spilled, so the parser itself holds about 1 MiB.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SATCHEL_MULTIPART_MEASURE"] != nil))
    func measureLargeUpload() throws {
        let gibibytes = Double(ProcessInfo.processInfo.environment["SATCHEL_MULTIPART_MEASURE"] ?? "") ?? 1
        let total = Int(gibibytes * 1024 * 1024 * 1024)
        var block = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        for position in stride(from: 0, to: block.count - 16, by: 4096) {
            block.replaceSubrange(position..<position + 12, with: bytes("\r\n--BOUNDAR"))
        }
        var limits = Limits.default
        limits.maxBodyBytes = .max
        let parser = try MultipartReader(boundary: "BOUNDARY", limits: limits)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let before = usage.ru_maxrss
        let start = ContinuousClock.now
        _ = try parser.feed(bytes("--BOUNDARY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big\"\r\n\r\n"))
        var sent = 0
        var parts: [MultipartReader.Part] = []
        while sent < total {
            parts += try parser.feed(block)
            sent += block.count
        }
        parts += try parser.feed(bytes("\r\n--BOUNDARY--\r\n"))
        try parser.finish()
        let elapsed = ContinuousClock.now - start
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            """
            multipart parser: \(sent >> 20) MiB in \(String(format: "%.2f", seconds)) s \
            (\(String(format: "%.0f", Double(sent >> 20) / seconds)) MiB/s), peak RSS \(usage.ru_maxrss / 1024) MiB \
            (\((usage.ru_maxrss - before) / 1024) MiB more than before)
            """)
        #expect(parts.first?.size == sent)
        #expect(usage.ru_maxrss - before < 32 * 1024)
    }
}
