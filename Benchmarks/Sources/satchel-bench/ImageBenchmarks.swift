// SPDX-License-Identifier: Apache-2.0
import CImageBaseline
import Foundation
import Satchel

/// PNG and JPEG decoding: Satchel's `ImageReader` against libpng and libjpeg called directly
/// from C (CImageBaseline) on the same bytes, to the same 8-bit RGBA and RGB pixels, on a
/// 12-megapixel photo-like picture (`scripts/corpus image`).
struct ImageBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// The corpus files and whether each is a PNG.
    static let files = [
        ("photo-rgb.png", true), ("photo-rgba.png", true), ("photo-baseline.jpg", false),
        ("photo-progressive.jpg", false),
    ]

    /// Guards, then times each file in RGBA8 and RGB8.
    func run() throws -> [ComparisonTable] {
        var tables: [ComparisonTable] = []
        for (output, channels) in [(ImageReadingOptions.Output.rgba8, 4), (.rgb8, 3)] {
            var table = ComparisonTable(
                title: "Image decode to \(output.rawValue.uppercased()): Satchel vs libpng/libjpeg in C",
                satchelCall: "ImageReader(options: .init(output: .\(output.rawValue))).read(bytes)",
                peerName: "C",
                peerCall: "libpng low-level read / libjpeg read_scanlines into a malloc'd buffer, then free",
                sizeNote: "the decoded pixels (width × height × \(channels))", target: 0.95)
            for (name, isPNG) in Self.files {
                let bytes = try read(name)
                let reader = ImageReader(options: ImageReadingOptions(output: output))
                let pixelBytes = try check(bytes, reader: reader, channels: channels, isPNG: isPNG, name: name)
                Progress.note("image \(output.rawValue) \(name)")
                let samples = try sampler.measure([
                    { try reader.read(bytes) },
                    { Self.baseline(bytes, channels: channels, isPNG: isPNG) },
                ])
                table.rows.append(Comparison(input: name, bytes: pixelBytes, satchel: samples[0], peer: samples[1]))
            }
            tables.append(table)
        }
        return tables
    }

    /// Decodes with the C baseline and frees the pixels; returns their size.
    static func baseline(_ bytes: [UInt8], channels: Int, isPNG: Bool) -> Int {
        var size = 0
        let pixels = bytes.withUnsafeBufferPointer { buffer in
            isPNG
                ? image_baseline_png(buffer.baseAddress, buffer.count, Int32(channels), &size)
                : image_baseline_jpeg(buffer.baseAddress, buffer.count, Int32(channels), &size)
        }
        image_baseline_free(pixels)
        return pixels == nil ? -1 : size
    }

    /// Fails unless Satchel's pixels are byte for byte the baseline's; returns their size.
    private func check(_ bytes: [UInt8], reader: ImageReader, channels: Int, isPNG: Bool, name: String) throws -> Int {
        let image = try reader.read(bytes)
        var size = 0
        let pixels = bytes.withUnsafeBufferPointer { buffer in
            isPNG
                ? image_baseline_png(buffer.baseAddress, buffer.count, Int32(channels), &size)
                : image_baseline_jpeg(buffer.baseAddress, buffer.count, Int32(channels), &size)
        }
        defer { image_baseline_free(pixels) }
        guard let pixels, size == image.pixels.count,
            image.pixels.elementsEqual(UnsafeBufferPointer(start: pixels, count: size))
        else { throw BenchmarkFailure.guardFailed("\(name): Satchel's pixels differ from the C baseline's") }
        guard image.width * image.height >= 12_000_000 else {
            throw BenchmarkFailure.guardFailed("\(name): \(image.width) x \(image.height) is not 12 megapixels")
        }
        return size
    }

    private func read(_ name: String) throws -> [UInt8] {
        let url = corpus.directory.appendingPathComponent("image/\(name)")
        guard let data = try? Data(contentsOf: url) else {
            throw BenchmarkFailure.corpus("cannot read \(url.path) (run scripts/corpus image first)")
        }
        return [UInt8](data)
    }
}
