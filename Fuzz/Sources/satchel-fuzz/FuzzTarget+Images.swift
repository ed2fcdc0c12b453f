// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FuzzTarget {
    /// `ImageReader` on PNG seeds.
    static let png = FuzzTarget(name: "png", summary: "ImageReader (PNG seeds; libpng behind the C shim)") { input in
        decodeImage(input)
    }

    /// `ImageReader` on JPEG seeds.
    static let jpeg = FuzzTarget(name: "jpeg", summary: "ImageReader (JPEG seeds; libjpeg behind the C shim)") {
        input in
        decodeImage(input)
    }

    /// Decodes with an output and scale picked by the input's hash (the format is sniffed, so
    /// both targets reach both decoders) and checks the buffer's geometry: positive size within
    /// `maxImagePixels`, `rowStride × height` bytes, whole pixels in a row.
    private static func decodeImage(_ input: FuzzInput) {
        let outputs = ImageReadingOptions.Output.allCases
        let scales = ImageReadingOptions.Scale.allCases
        let options = ImageReadingOptions(
            output: outputs[Int(input.hash % UInt64(outputs.count))],
            scale: scales[Int((input.hash >> 8) % UInt64(scales.count))],
            applyGamma: input.flag(16))
        let reader = ImageReader(options: options, limits: FuzzLimits.tight)
        guard case .success(let image) = FuzzCheck.outcome("ImageReader.read", { try reader.read(input.bytes) }) else {
            return
        }
        let geometry =
            "\(image.width)×\(image.height), \(image.channels) channels of \(image.bitDepth) bits, stride \(image.rowStride), \(image.pixels.count) bytes"
        guard image.width > 0, image.height > 0, image.width * image.height <= FuzzLimits.tight.maxImagePixels,
            image.channels > 0, image.bitDepth == 8 || image.bitDepth == 16,
            image.rowStride >= image.width * image.channels * image.bitDepth / 8,
            image.pixels.count == image.rowStride * image.height
        else {
            FuzzCheck.fail("image with inconsistent geometry (\(options)): \(geometry)")
        }
        _ = image.canonicalValue
    }
}
