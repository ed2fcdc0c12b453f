// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Decoded pixels and metadata against the independent references of
/// scripts/generate-test-images.py: PNG exactly, JPEG within a small tolerance.
@Suite struct ImageReaderTests {
    /// libjpeg builds (Pillow's bundled libjpeg-turbo 3, Debian's 2.1) may round the IDCT and
    /// upsampling differently. Measured with Pillow 11.3.0 against Debian 12's libjpeg-turbo 2.1.5: 0
    /// (``jpegDifferenceIsSmall`` prints it).
    static let jpegTolerance = 3

    @Test func imagesWereGenerated() throws {
        try ImageSamples.requireGenerated()
        #expect(ImageSamples.cases("png").count >= 40)
        #expect(ImageSamples.cases("jpeg").count >= 30)
    }

    @Test(arguments: ImageSamples.cases("png"))
    func pngMatchesReferenceExactly(_ sample: ImageSamples.Case) throws {
        let image = try decodeImage(try sample.bytes())
        try expectMetadata(image, sample)
        #expect(image.channels == 4 && image.bitDepth == 8 && image.rowStride == sample.width * 4)
        let reference = try sample.referencePixels()
        #expect(image.pixels.count == reference.count)
        #expect(image.pixels == reference, "max difference \(maxSampleDifference(image.pixels, reference))")
    }

    @Test(arguments: ImageSamples.cases("jpeg"))
    func jpegMatchesReferenceWithinTolerance(_ sample: ImageSamples.Case) throws {
        let scale = try #require(ImageReadingOptions.Scale(rawValue: sample.scale))
        let image = try decodeImage(try sample.bytes(), ImageReadingOptions(scale: scale))
        try expectMetadata(image, sample)
        let reference = try sample.referencePixels()
        #expect(image.pixels.count == reference.count)
        #expect(maxSampleDifference(image.pixels, reference) <= Self.jpegTolerance)
    }

    @Test func jpegDifferenceIsSmall() throws {
        var worst = (difference: 0, name: "every case")
        for sample in ImageSamples.cases("jpeg") {
            let image = try decodeImage(
                try sample.bytes(), ImageReadingOptions(scale: .init(rawValue: sample.scale) ?? .full))
            let difference = maxSampleDifference(image.pixels, try sample.referencePixels())
            if difference > worst.difference { worst = (difference, sample.name) }
        }
        print("JPEG: largest difference from Pillow per channel: \(worst.difference) (\(worst.name))")
        #expect(worst.difference <= Self.jpegTolerance)
    }

    @Test(arguments: ImageSamples.cases.filter { $0.scale == 1 })
    func rgb8DropsAlphaOfReference(_ sample: ImageSamples.Case) throws {
        let image = try decodeImage(try sample.bytes(), ImageReadingOptions(output: .rgb8))
        #expect(image.channels == 3 && image.bitDepth == 8 && image.rowStride == image.width * 3)
        let reference = try sample.referencePixels().enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(image.pixels.count == reference.count)
        let tolerance = sample.format == "png" ? 0 : Self.jpegTolerance
        #expect(maxSampleDifference(image.pixels, reference) <= tolerance)
    }

    @Test(arguments: ImageSamples.cases("png").filter { $0.name.hasPrefix("png-gray") || $0.name.hasPrefix("png-rgb") })
    func nativeKeepsStoredChannelsAndDepth(_ sample: ImageSamples.Case) throws {
        let image = try decodeImage(try sample.bytes(), ImageReadingOptions(output: .native))
        let alpha = sample.colorType.hasSuffix("lpha") || sample.colorType == "rgba" || sample.hasTransparency
        let colors = sample.colorType.hasPrefix("gray") ? 1 : 3
        #expect(image.channels == colors + (alpha ? 1 : 0))
        #expect(image.bitDepth == (sample.bitDepth == 16 ? 16 : 8))
        #expect(image.rowStride == image.width * image.channels * image.bitDepth / 8)
        // Each native sample, scaled to 8 bits, gives the reference (16-bit: host order, round(v / 257)).
        let reference = try sample.referencePixels()
        for pixel in 0..<(image.width * image.height) {
            for channel in 0..<image.channels {
                let native: Int
                if image.bitDepth == 16 {
                    let offset = (pixel * image.channels + channel) * 2
                    native = (Int(UInt16(image.pixels[offset]) | UInt16(image.pixels[offset + 1]) << 8) * 2 + 257) / 514
                } else {
                    native = Int(image.pixels[pixel * image.channels + channel])
                }
                let referenceChannel = channel == colors ? 3 : channel
                #expect(native == Int(reference[pixel * 4 + referenceChannel]), "pixel \(pixel) channel \(channel)")
                if native != Int(reference[pixel * 4 + referenceChannel]) { return }
            }
        }
    }

    @Test func nativeJPEGChannels() throws {
        #expect(
            try decodeImage(try ImageSamples.bytes("jpeg-gray"), ImageReadingOptions(output: .native)).channels == 1)
        #expect(
            try decodeImage(try ImageSamples.bytes("jpeg-baseline-420"), ImageReadingOptions(output: .native)).channels
                == 3)
        let cmyk = try decodeImage(try ImageSamples.bytes("jpeg-cmyk"), ImageReadingOptions(output: .native))
        #expect(cmyk.channels == 4 && cmyk.metadata.colorType == .cmyk)
        // Uninverted ink: the first pixel's RGB from its CMYK is close to the RGBA8 decode's.
        let rgba = try decodeImage(try ImageSamples.bytes("jpeg-cmyk"))
        let inkless = 255 - Int(cmyk.pixels[3])
        #expect(abs(inkless * (255 - Int(cmyk.pixels[0])) / 255 - Int(rgba.pixels[0])) <= 1)
    }

    @Test func gammaOnlyWhenAsked() throws {
        let bytes = try ImageSamples.bytes("png-gamma-linear")
        let reference = try ImageSamples.load("png-gamma-linear.rgba")
        #expect(try decodeImage(bytes).pixels == reference)
        // A linear file (gAMA 1.0) shown on sRGB: v' = 255 · (v / 255)^(1 / 2.2).
        let corrected = try decodeImage(bytes, ImageReadingOptions(applyGamma: true))
        for (index, value) in reference.enumerated() where index % 4 != 3 {
            let expected = 255 * pow(Double(value) / 255, 1 / 2.2)
            #expect(abs(Double(corrected.pixels[index]) - expected) <= 1.0, "sample \(index)")
        }
    }

    @Test func jpegScalingShrinksFromTheStoredSize() throws {
        let bytes = try ImageSamples.bytes("jpeg-progressive")
        for scale in ImageReadingOptions.Scale.allCases {
            let image = try decodeImage(bytes, ImageReadingOptions(scale: scale))
            #expect(image.width == (67 + scale.rawValue - 1) / scale.rawValue)
            #expect(image.height == (45 + scale.rawValue - 1) / scale.rawValue)
            #expect(image.metadata.width == 67 && image.metadata.height == 45)
        }
        // PNG ignores the scale.
        #expect(try decodeImage(try ImageSamples.bytes("png-rgb-8"), ImageReadingOptions(scale: .eighth)).width == 37)
    }

    @Test func canonicalJSON() throws {
        let image = try decodeImage(try ImageSamples.bytes("jpeg-exif-6"))
        let json = Value.payload(image).canonicalJSON()
        #expect(
            json == #"{"$image":{"format":"jpeg","width":67,"height":45,"channels":4,"bitDepth":8,"orientation":6,"#
                + #""colorType":"yCbCr","interlaced":false,"progressive":false,"hasICCProfile":false}}"#)
        #expect(Value.payload(image) == Value.payload(try decodeImage(try ImageSamples.bytes("jpeg-exif-6"))))
        #expect(Value.payload(image) != Value.payload(try decodeImage(try ImageSamples.bytes("jpeg-exif-5"))))
    }

    private func expectMetadata(_ image: DecodedImage, _ sample: ImageSamples.Case) throws {
        #expect(image.format.rawValue == sample.format)
        #expect(image.width == sample.outWidth && image.height == sample.outHeight)
        #expect(image.metadata.width == sample.width && image.metadata.height == sample.height)
        #expect(image.metadata.colorType.rawValue == sample.colorType)
        #expect(image.metadata.bitDepth == sample.bitDepth)
        #expect(image.metadata.interlaced == sample.interlaced)
        #expect(image.metadata.progressive == sample.progressive)
        #expect(image.metadata.hasICCProfile == sample.hasICCProfile)
        #expect(image.metadata.hasTransparency == sample.hasTransparency)
        #expect(image.orientation.rawValue == sample.orientation)
    }
}
