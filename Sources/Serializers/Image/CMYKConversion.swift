// SPDX-License-Identifier: Apache-2.0
import CSatchelImageCodecs

/// Turns the CMYK rows libjpeg writes for CMYK and YCCK JPEGs into the layout asked for, in
/// place: RGB(A) as Pillow computes it (`R = (255 − K) − (C · (255 − K)) / 255`, rounded the way
/// Pillow's `MULDIV255` rounds), or uninverted CMYK for ``ImageReadingOptions/Output/native``.
/// Adobe's files store inverted ink amounts; their samples are inverted first.
struct CMYKConversion {
    /// Samples per output pixel: 4 (RGBA, CMYK) or 3 (RGB).
    let outputChannels: Int
    private let output: ImageReadingOptions.Output
    private let inverted: Bool

    /// The conversion a JPEG's header calls for, or `nil` when libjpeg writes the final layout.
    init?(header: satchel_image_header, output: ImageReadingOptions.Output) {
        let cmyk = header.color == SATCHEL_IMAGE_COLOR_CMYK || header.color == SATCHEL_IMAGE_COLOR_YCCK
        guard cmyk, header.out_channels == 4 else { return nil }
        self.output = output
        self.inverted = header.adobe_inverted != 0
        self.outputChannels = output == .rgb8 ? 3 : 4
    }

    /// Converts the `pixelBytes` CMYK bytes at the start of `buffer`; returns the bytes used.
    /// - Complexity: O(pixels).
    func convert(_ buffer: UnsafeMutableBufferPointer<UInt8>, pixelBytes: Int) -> Int {
        let pixelCount = pixelBytes / 4
        let flip: UInt8 = inverted ? 0xFF : 0
        if output == .native {
            if inverted { for index in 0..<pixelBytes { buffer[index] = ~buffer[index] } }
            return pixelBytes
        }
        var target = 0
        for pixel in 0..<pixelCount {
            let source = pixel * 4
            let black = Int(buffer[source + 3] ^ flip)
            let inkless = 255 - black
            let cyan = Int(buffer[source] ^ flip)
            let magenta = Int(buffer[source + 1] ^ flip)
            let yellow = Int(buffer[source + 2] ^ flip)
            buffer[target] = UInt8(inkless - Self.mulDiv255(cyan, inkless))
            buffer[target + 1] = UInt8(inkless - Self.mulDiv255(magenta, inkless))
            buffer[target + 2] = UInt8(inkless - Self.mulDiv255(yellow, inkless))
            if outputChannels == 4 { buffer[target + 3] = 255 }
            target += outputChannels
        }
        return target
    }

    /// a · b / 255, rounded (Pillow's `MULDIV255`).
    private static func mulDiv255(_ a: Int, _ b: Int) -> Int {
        let product = a * b + 128
        return ((product >> 8) + product) >> 8
    }
}
