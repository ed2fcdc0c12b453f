// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Bad images: unsupported and unknown formats, truncation, corruption, huge headers, hostile
/// EXIF and seeded mutations. Every outcome is an image or a ``SatchelError``; nothing traps.
@Suite struct ImageAdversarialTests {
    @Test func unsupportedFormatsAreNamed() throws {
        try ImageSamples.requireGenerated()
        #expect(ImageSamples.unsupported.count == 5)
        for (file, name) in ImageSamples.unsupported {
            let error = satchelError { try decodeImage(try ImageSamples.load(file)) }
            #expect(error?.code == .unsupportedFormat, "\(file)")
            #expect(error?.message == "unsupported image format: \(name)", "\(file)")
        }
        let heic = [0, 0, 0, 24] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 12)
        #expect(satchelError { try decodeImage(heic) }?.message == "unsupported image format: HEIF/AVIF")
    }

    @Test func unknownBytesAreUnsupported() {
        for bytes: [UInt8] in [Array("<html>hello</html>".utf8), [0], [0xFF, 0xD8, 0x00], Array("{\"a\":1}".utf8)] {
            let error = satchelError { try decodeImage(bytes) }
            #expect(error?.code == .unsupportedFormat)
            #expect(error?.message.hasPrefix("unsupported image format: unknown image format (first bytes: ") == true)
        }
        let error = satchelError { try decodeImage([0x3C, 0x68]) }
        #expect(error?.message == "unsupported image format: unknown image format (first bytes: 3C 68)")
    }

    @Test func truncatedSignature() {
        let error = satchelError { try decodeImage([0x89, 0x50, 0x4E]) }
        #expect(error?.code == .truncatedInput)
        #expect(error?.message == "truncated PNG signature (3 bytes)")
        #expect(satchelError { try decodeImage([0xFF, 0xD8]) }?.code == .truncatedInput)
    }

    @Test(arguments: [
        "png-rgba-8", "png-palette-4-adam7", "png-gray-16", "jpeg-baseline-420", "jpeg-progressive", "jpeg-cmyk",
    ])
    func everyTruncationIsRejected(_ name: String) throws {
        let bytes = try ImageSamples.bytes(name)
        let step = max(1, bytes.count / 150)
        for length in stride(from: 0, to: bytes.count, by: step) + [bytes.count - 1, bytes.count - 2] {
            do {
                let image = try decodeImage(Array(bytes.prefix(length)))
                Issue.record("\(name) cut to \(length) of \(bytes.count) bytes decoded as \(image)")
            } catch let error as SatchelError {
                #expect(
                    [.truncatedInput, .syntaxError, .unsupportedFormat].contains(error.code), "\(length): \(error)")
            }
        }
    }

    @Test func truncationCarriesTheLibraryMessage() throws {
        let png = try ImageSamples.bytes("png-rgb-8")
        let pngError = satchelError { try decodeImage(Array(png.dropLast(20))) }
        #expect(pngError?.code == .truncatedInput)
        #expect(pngError?.message == "truncated PNG image (libpng: unexpected end of PNG data)")
        let jpeg = try ImageSamples.bytes("jpeg-baseline-420")
        let jpegError = satchelError { try decodeImage(Array(jpeg.prefix(jpeg.count / 2))) }
        #expect(jpegError?.code == .truncatedInput)
        #expect(jpegError?.message == "truncated JPEG image (libjpeg: Premature end of JPEG file)")
    }

    @Test func badCRCIsRejectedWithLibpngsMessage() throws {
        var png = try ImageSamples.bytes("png-rgb-8")
        png[29] ^= 0x01  // the IHDR CRC (8 signature + 4 length + 4 type + 13 data)
        let error = satchelError { try decodeImage(png) }
        #expect(error?.code == .syntaxError)
        #expect(error?.message == "corrupt PNG image (libpng: IHDR: CRC error)")
        // A flipped bit in the compressed data: zlib notices before the chunk's CRC is checked.
        var idat = try ImageSamples.bytes("png-rgb-8")
        let index = try #require(firstIndex(of: Array("IDAT".utf8), in: idat))
        idat[index + 10] ^= 0x40
        let dataError = satchelError { try decodeImage(idat) }
        #expect(
            dataError?.message.hasPrefix("corrupt PNG image (libpng: IDAT: ") == true,
            "\(String(describing: dataError))")
        // A flipped bit in the last chunk's CRC itself.
        var iend = try ImageSamples.bytes("png-rgb-8")
        iend[iend.count - 1] ^= 0x01
        #expect(satchelError { try decodeImage(iend) }?.message == "corrupt PNG image (libpng: IEND: CRC error)")
    }

    @Test func corruptEntropyDataIsRejected() throws {
        var jpeg = try ImageSamples.bytes("jpeg-baseline-444")
        let scan = try #require(firstIndex(of: [0xFF, 0xDA], in: jpeg))
        let dataStart = scan + 2 + Int(jpeg[scan + 2]) << 8 + Int(jpeg[scan + 3])
        // All-ones codes are never valid Huffman codes (FF 00 is a stuffed 0xFF data byte).
        // libjpeg-turbo's fast path decodes them to 0 silently; the scan then ends out of step
        // and libjpeg warns of corrupt data, which Satchel treats as an error.
        for offset in stride(from: dataStart + 40, to: dataStart + 200, by: 2) {
            jpeg[offset] = 0xFF
            jpeg[offset + 1] = 0x00
        }
        let error = satchelError { try decodeImage(jpeg) }
        #expect(error?.code == .syntaxError)
        #expect(
            error?.message.hasPrefix("corrupt JPEG image (libjpeg: Corrupt JPEG data: ") == true,
            "\(String(describing: error))")
    }

    @Test func hugePNGHeaderFailsBeforeAllocating() {
        // 30 000 x 30 000 RGBA: 3.6 GB of pixels if anyone allocated them; the body is 60 bytes.
        let header = bigEndian(30_000) + bigEndian(30_000) + [8, 6, 0, 0, 0]
        let png =
            ImageFormatSignatures.png + pngChunk("IHDR", header) + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0, 0, 0, 0, 1])
            + pngChunk("IEND", [])
        let error = satchelError { try decodeImage(png) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxImagePixels")
        #expect(error?.message == "a PNG image of 30000 x 30000 pixels exceeds Limits.maxImagePixels (100000000)")
    }

    @Test func hugeJPEGHeaderFailsBeforeAllocating() throws {
        var jpeg = try ImageSamples.bytes("jpeg-progressive")
        let frame = try #require(firstIndex(of: [0xFF, 0xC2], in: jpeg))
        jpeg.replaceSubrange(frame + 5..<frame + 9, with: [0x75, 0x30, 0x75, 0x30])  // height, width 30 000
        let error = satchelError { try decodeImage(jpeg, ImageReadingOptions(scale: .eighth)) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message == "a JPEG image of 30000 x 30000 pixels exceeds Limits.maxImagePixels (100000000)")
    }

    @Test func twelveBitJPEGIsRefusedByLibjpeg() throws {
        var jpeg = try ImageSamples.bytes("jpeg-baseline-444")
        let frame = try #require(firstIndex(of: [0xFF, 0xC0], in: jpeg))
        jpeg[frame + 4] = 12  // sample precision
        let error = satchelError { try decodeImage(jpeg) }
        #expect(error?.code == .syntaxError)
        #expect(error?.message == "corrupt JPEG image (libjpeg: Unsupported JPEG data precision 12)")
    }

    @Test func lowerPixelLimitApplies() throws {
        let limits = Limits(maxImagePixels: 37 * 23 - 1)
        #expect(
            satchelError { try decodeImage(try ImageSamples.bytes("png-rgb-8"), limits: limits) }?.limit
                == "maxImagePixels")
        #expect(
            try decodeImage(try ImageSamples.bytes("png-rgb-8"), limits: Limits(maxImagePixels: 37 * 23)).width == 37)
        #expect(
            satchelError { try decodeImage(try ImageSamples.bytes("png-rgb-8"), limits: Limits(maxImagePixels: -1)) }?
                .code == .limitExceeded)
    }

    @Test func hostileEXIFIsIgnoredNotTrusted() throws {
        let pixels = try ImageSamples.bytes("png-icc")  // any PNG; eXIf inserted after IHDR
        let hostile: [[UInt8]] = [
            [],
            Array("II".utf8),
            Array("II*\0".utf8) + [0xFF, 0xFF, 0xFF, 0x7F],  // IFD far past the end
            Array("MM\0*".utf8) + [0, 0, 0, 8, 0xFF, 0xFF],  // 65 535 entries announced, none there
            Array("II*\0".utf8) + [8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 9, 0],  // orientation 9
            Array("II*\0".utf8) + [8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0],  // value cut off
            Array("II*\0".utf8) + [8, 0, 0, 0, 1, 0, 0x12, 0x01, 4, 0, 1, 0, 0, 0, 6, 0, 0, 0],  // LONG, not SHORT
        ]
        var parsed = 0
        for exif in hostile {
            var png = Array(pixels.prefix(33))
            png += pngChunk("eXIf", exif) + pixels.dropFirst(33)
            do {
                #expect(try decodeImage(png).orientation == .up, "\(exif)")
                parsed += 1
            } catch let error as SatchelError {
                // libpng rejects some eXIf chunks itself (too short, bad byte order).
                #expect(error.code == .syntaxError, "\(exif): \(error)")
            }
        }
        #expect(parsed >= 5, "Satchel's EXIF parser saw only \(parsed) of the hostile chunks")
        // The same chunk with a valid orientation is read.
        let valid = Array("II*\0".utf8) + [8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0, 0]
        #expect(
            try decodeImage(Array(pixels.prefix(33)) + pngChunk("eXIf", valid) + pixels.dropFirst(33)).orientation
                == .rightMirrored)
    }

    @Test func seededMutationsGiveImagesOrErrors() throws {
        var generator = SeededGenerator(seed: 0x1_6A9E)
        let mutator = ByteMutator(
            alphabet: [0x00, 0xFF, 0xD8, 0xD9, 0xDA, 0xC0, 0xC2, 0xDD, 0x7F, 0x80, 0x01, 0x49, 0x44, 0x41, 0x54],
            snippets: ["IDAT", "IEND", "tRNS", "\u{FF}\u{D9}", "\u{FF}\u{DA}", "PLTE", "Exif\0\0MM\0*"])
        var outcomes = (images: 0, errors: 0)
        for name in [
            "png-palette-2-trns", "png-rgba-16-adam7", "png-gray-1", "jpeg-progressive", "jpeg-cmyk", "jpeg-exif-3",
        ] {
            let original = try ImageSamples.bytes(name)
            for _ in 0..<120 {
                let mutated = mutator.mutate(original, using: &generator)
                let options = ImageReadingOptions(
                    output: ImageReadingOptions.Output.allCases.randomElement(using: &generator) ?? .rgba8,
                    scale: ImageReadingOptions.Scale.allCases.randomElement(using: &generator) ?? .full)
                do {
                    let image = try decodeImage(mutated, options)
                    #expect(image.pixels.count == image.height * image.rowStride)
                    outcomes.images += 1
                } catch is SatchelError {
                    outcomes.errors += 1
                }
            }
        }
        #expect(outcomes.images > 0 && outcomes.errors > 0, "\(outcomes)")
    }

    private func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
}

/// The signatures tests build files from.
enum ImageFormatSignatures {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
