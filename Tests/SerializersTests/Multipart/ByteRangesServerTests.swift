// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// multipart/byteranges as a real server sends it: nginx (installed by scripts/setup) answers a
/// request for three ranges, and every part's bytes and Content-Range must match the file.
@Suite(.hangGuard) struct ByteRangesServerTests {
    @Test func nginxRangesDecodeToTheFilesBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-ranges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SeededGenerator(seed: 7)
        let file = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let filePath = folder.appendingPathComponent("data.bin")
        try Data(file).write(to: filePath)
        let bodyPath = folder.appendingPathComponent("response.body")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            MultipartSamples.root.appendingPathComponent("scripts/fetch-byteranges.py").path,
            filePath.path, "bytes=0-99,1000-1499,4000-4095", bodyPath.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0, "fetch-byteranges.py failed (is nginx installed? run scripts/setup)")
        let lines = printed.split(separator: "\n").map(String.init)
        #expect(lines.first == "206")
        let contentType = try MediaType(parsing: try #require(lines.last))
        #expect(contentType.essence == "multipart/byteranges")

        let body = [UInt8](try Data(contentsOf: bodyPath))
        let value = try Registry.standard().decode(body, contentType: contentType)
        let parts = try #require(value?.multipartParts)
        #expect(parts.count == 3)
        for element in parts {
            let range = try #require(try element.part.contentRange?.range)
            #expect(try element.part.contentRange?.completeLength == 4096)
            let expected = Array(file[Int(range.lowerBound)...Int(range.upperBound)])
            #expect(element.value.bytesValue == expected, "\(range)")
        }
        #expect(try parts.map { try $0.part.contentRange?.range } == [0...99, 1000...1499, 4000...4095])
    }
}
