// SPDX-License-Identifier: Apache-2.0
/// How ``ImageReader`` lays out the pixels it returns.
public struct ImageReadingOptions: Sendable, Hashable {
    /// The pixel layout of a decoded image.
    public enum Output: String, Sendable, Hashable, CaseIterable {
        /// 8-bit red, green, blue, alpha; alpha is 255 where the image has none. 16-bit samples
        /// become round(v / 257).
        case rgba8
        /// 8-bit red, green, blue; any alpha is dropped (not composited).
        case rgb8
        /// The stored channels: gray, gray+alpha, RGB or RGBA for PNG (palette and tRNS expanded
        /// to RGB(A), samples under 8 bits scaled to 8, 16-bit samples kept in host byte order);
        /// gray, RGB or CMYK (uninverted ink amounts) for JPEG.
        case native
    }

    /// JPEG downscaling while decoding, by libjpeg's DCT scaling (cheap thumbnails).
    /// PNG images are always decoded at full size.
    public enum Scale: Int, Sendable, Hashable, CaseIterable {
        /// Full size.
        case full = 1
        /// Half the width and height (rounded up).
        case half = 2
        /// A quarter of the width and height (rounded up).
        case quarter = 4
        /// An eighth of the width and height (rounded up).
        case eighth = 8
    }

    /// The pixel layout. Default ``Output/rgba8``.
    public var output: Output
    /// The JPEG scale. Default ``Scale/full``.
    public var scale: Scale
    /// Whether PNG samples are converted from the file's gamma (its `gAMA` chunk) to sRGB's.
    /// Default `false`: samples are returned as stored, as browsers' raw decoders and Pillow do.
    public var applyGamma: Bool

    /// Creates options; the defaults give full-size RGBA8 pixels without gamma correction.
    public init(output: Output = .rgba8, scale: Scale = .full, applyGamma: Bool = false) {
        self.output = output
        self.scale = scale
        self.applyGamma = applyGamma
    }
}
