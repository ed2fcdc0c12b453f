// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

extension MultipartBenchmarks {
    /// Fails unless Satchel and multipart-kit build bodies that both parsers read back as the
    /// same fields and the same file, on a 1 MiB file cut from the head of `upload`, and unless
    /// the plain loop copies that file whole.
    static func checkBuilders(upload: String) throws {
        guard let head = FileHandle(forReadingAtPath: upload)?.readData(ofLength: 1 << 20), head.count == 1 << 20 else {
            throw BenchmarkFailure.corpus("cannot read \(upload) (run scripts/corpus multipart first)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("upload.bin").path
        try head.write(to: URL(fileURLWithPath: path))

        let boundary = MultipartBuildContender.boundary
        let satchelBody = try MultipartBuildContender.satchelForm(fileAt: path).makeBodyStream().bytes()
        let kitBody = try MultipartKitPeer.buildBytes(
            fields: MultipartBuildContender.fields, fileAt: path, filename: "upload.bin",
            contentType: "application/octet-stream", boundary: boundary)
        let expected =
            MultipartBuildContender.fields.map { ($0.name, Array($0.value.utf8)) } + [("upload", [UInt8](head))]
        for (builder, body) in [("Satchel", satchelBody), ("multipart-kit", kitBody)] {
            let bySatchel = try satchelParse(body, boundary: boundary).map { ($0.name ?? "", try $0.bytes()) }
            let byKit = try MultipartKitPeer.parse(
                chunks: MultipartKitPeer.chunks(of: body, size: chunkSize), boundary: boundary
            )
            .map { ($0.name ?? "", $0.bodyBytes) }
            for (parser, parts) in [("Satchel", bySatchel), ("multipart-kit", byKit)] {
                guard parts.map(\.0) == expected.map(\.0), parts.map(\.1) == expected.map(\.1) else {
                    throw BenchmarkFailure.guardFailed(
                        "\(parser)'s parser does not read \(builder)'s built body back as its parts")
                }
            }
        }
        guard let sink = FileHandle(forWritingAtPath: "/dev/null"),
            try MultipartBuildContender.copy(path, to: sink.fileDescriptor) == head.count
        else {
            throw BenchmarkFailure.guardFailed("the read/write loop did not copy the whole file")
        }
    }

    /// Fails unless both parsers read `file` as the parts the manifest lists (names, header
    /// counts, body sizes), with the same headers and the same body bytes as each other.
    static func checkParsers(
        file: Corpus.File, kitParts: [MultipartKitPeer.CollectedPart],
        expected: MultipartManifest.Body
    ) throws {
        let satchelParts = try satchelParse(file.bytes, boundary: expected.boundary)
        func fail(_ message: String) -> BenchmarkFailure { .guardFailed("\(file.name): \(message)") }
        guard file.bytes.count == expected.bytes else {
            throw fail("\(file.bytes.count) bytes, the manifest says \(expected.bytes)")
        }
        guard satchelParts.count == expected.parts.count, kitParts.count == expected.parts.count else {
            throw fail(
                "Satchel read \(satchelParts.count) parts, multipart-kit \(kitParts.count), the manifest lists \(expected.parts.count)"
            )
        }
        for (index, wanted) in expected.parts.enumerated() {
            let satchel = satchelParts[index]
            let kit = kitParts[index]
            guard satchel.name == wanted.name, kit.name == wanted.name,
                satchel.headers.count == wanted.headers, kit.headers.count == wanted.headers,
                zip(satchel.headers, kit.headers).allSatisfy({ $0.name == $1.name && $0.value == $1.value }),
                satchel.size == wanted.bytes, try satchel.bytes() == kit.bodyBytes
            else {
                throw fail("part \(index) (\(wanted.name)) differs between Satchel, multipart-kit and the manifest")
            }
        }
    }
}
