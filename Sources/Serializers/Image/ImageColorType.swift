// SPDX-License-Identifier: Apache-2.0
/// How an image stores its colour, as its header says.
public enum ImageColorType: String, Sendable, Hashable, CaseIterable {
    /// Gray samples (PNG colour type 0, JPEG grayscale).
    case gray
    /// Gray and alpha (PNG colour type 4).
    case grayAlpha
    /// Red, green, blue (PNG colour type 2, JPEG stored as RGB).
    case rgb
    /// Red, green, blue, alpha (PNG colour type 6).
    case rgba
    /// Palette indices (PNG colour type 3).
    case palette
    /// Luma and chroma (the usual JPEG).
    case yCbCr
    /// Cyan, magenta, yellow, black (JPEG).
    case cmyk
    /// YCbCr plus black (Adobe JPEG).
    case ycck
    /// Anything else libjpeg reports.
    case other
}
