// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel decode` on PNG and JPEG bodies, through the built binary, against the images and
/// references scripts/generate-test-images.py writes.
@Suite struct ImageCLITests {
    static let root = TestServers.root

    /// The generated images' folder (generated once per run).
    static let images: URL? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-cli-images-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = root.appendingPathComponent(".venv/bin/python")
        process.arguments = [root.appendingPathComponent("scripts/generate-test-images.py").path, folder.path]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? folder : nil
    }()

    static func path(_ name: String) throws -> String {
        try #require(images, "scripts/generate-test-images.py did not run: run scripts/setup").appendingPathComponent(
            name
        ).path
    }

    @Test func printsCanonicalJSON() throws {
        let result = try CommandRunner.run(["decode", "-c", "image/png", try Self.path("png-palette-4-adam7.png")])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output
                == #"{"$image":{"format":"png","width":37,"height":23,"channels":4,"bitDepth":8,"orientation":1,"#
                + #""colorType":"palette","interlaced":true,"progressive":false,"hasICCProfile":false}}"# + "\n")
    }

    @Test(arguments: ["png-rgba-16-adam7", "png-gray-2-trns", "jpeg-progressive", "jpeg-cmyk", "png-pillow-p"])
    func dumpPixelsWritesTheReferenceRGBA(_ name: String) throws {
        let file = try Self.path(name + (name.hasPrefix("png") ? ".png" : ".jpg"))
        let dump = try CommandRunner.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: dump) }
        let result = try CommandRunner.run(["decode", "-c", "image/jpeg", "--dump-pixels", dump, file])
        #expect(result.status == 0, "\(result.errorOutput)")
        let pixels = try Data(contentsOf: URL(fileURLWithPath: dump))
        let reference = try Data(contentsOf: URL(fileURLWithPath: try Self.path(name + ".rgba")))
        #expect(pixels.count == reference.count)
        let difference = zip(pixels, reference).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
        #expect(difference <= (name.hasPrefix("png") ? 0 : 3))
    }

    @Test func imageScaleShrinksJPEG() throws {
        let result = try CommandRunner.run([
            "decode", "-c", "image/jpeg", "--image-scale", "4", try Self.path("jpeg-exif-8.jpg"),
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains(#""width":17,"height":12,"#))
        #expect(result.output.contains(#""orientation":8"#))
        let bad = try CommandRunner.run([
            "decode", "-c", "image/jpeg", "--image-scale", "3", try Self.path("jpeg-exif-8.jpg"),
        ])
        #expect(bad.status == 64)
    }

    @Test func imagePartsOfMultipartBodiesAreDecodedUnlessRaw() throws {
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.path("png-gray-1.png"))))
        let body =
            Array(
                "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
                    .utf8)
            + png + Array("\r\n--B--\r\n".utf8)
        let result = try CommandRunner.run(["decode", "-c", "multipart/form-data; boundary=B"], input: body)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output.contains(
                #""contentType":"image/png","size":\#(png.count),"value":{"$image":{"format":"png","width":37"#))
        let raw = try CommandRunner.run(
            ["decode", "--raw-parts", "-c", "multipart/form-data; boundary=B"], input: body)
        #expect(raw.output.contains(#""contentType":"image/png","size":\#(png.count),"value":{"$data":"#))
    }

    @Test func failuresExitWithDocumentedCodes() throws {
        let gif = try CommandRunner.run(["decode", "-c", "image/gif", try Self.path("unsupported.gif")])
        #expect(gif.status == 67)
        #expect(gif.errorOutput == "satchel: unsupportedFormat: unsupported image format: GIF\n")
        #expect(gif.output.isEmpty)

        let png = try Data(contentsOf: URL(fileURLWithPath: try Self.path("png-rgb-8.png")))
        let truncated = try CommandRunner.run(["decode", "-c", "image/png", "-"], input: Array(png.prefix(100)))
        #expect(truncated.status == 65)
        #expect(
            truncated.errorOutput
                == "satchel: truncatedInput: truncated PNG image (libpng: unexpected end of PNG data)\n")

        let limited = try CommandRunner.run([
            "decode", "-c", "image/png", "--max-image-pixels", "100", try Self.path("png-rgb-8.png"),
        ])
        #expect(limited.status == 68)
        #expect(limited.errorOutput.contains("exceeds Limits.maxImagePixels (100)"))

        let json = try CommandRunner.run(["decode", "--dump-pixels", "/dev/null", "-"], input: Array(#"{"a":1}"#.utf8))
        #expect(json.status == 65)
        #expect(json.errorOutput.contains("--dump-pixels needs an image"))
    }
}
