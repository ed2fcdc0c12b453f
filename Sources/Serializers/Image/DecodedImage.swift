// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A decoded image: a pixel buffer and what the file said about it. The payload of the values
/// ``ImageResponseSerializer`` returns.
///
/// Pixels are rows of ``rowStride`` bytes, top to bottom, each pixel ``channels`` samples of
/// ``bitDepth`` bits (16-bit samples in host byte order). Canonical JSON (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md) leaves the
/// pixels out: `{"$image": {"format", "width", "height", "channels", "bitDepth", "orientation",
/// "colorType", "interlaced", "progressive", "hasICCProfile"}}`.
public final class DecodedImage: ValuePayload, Equatable {
    /// `"$image"`.
    public static let kind = "$image"

    /// The container format, from the magic bytes.
    public let format: ImageFormat
    /// Width of the pixel buffer (smaller than the stored width when JPEG scaling was asked for).
    public let width: Int
    /// Height of the pixel buffer.
    public let height: Int
    /// Samples per pixel: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA or CMYK.
    public let channels: Int
    /// Bits per sample: 8 or 16.
    public let bitDepth: Int
    /// Bytes from the start of one row to the next (no padding: `width * channels * bitDepth / 8`).
    public let rowStride: Int
    /// The samples, `height * rowStride` bytes.
    public let pixels: [UInt8]
    /// What the file's header says about it.
    public let metadata: Metadata

    /// The stored image's properties.
    public struct Metadata: Sendable, Hashable {
        /// Stored width (before any scaling).
        public var width: Int
        /// Stored height (before any scaling).
        public var height: Int
        /// Stored bits per sample (PNG 1, 2, 4, 8 or 16; JPEG 8).
        public var bitDepth: Int
        /// How colour is stored.
        public var colorType: ImageColorType
        /// Whether a PNG is Adam7-interlaced.
        public var interlaced: Bool
        /// Whether a JPEG is progressive.
        public var progressive: Bool
        /// Whether the file carries an ICC colour profile (PNG `iCCP`, JPEG APP2 `ICC_PROFILE`).
        public var hasICCProfile: Bool
        /// Whether a PNG has a `tRNS` chunk (a transparent colour or palette alpha).
        public var hasTransparency: Bool
        /// The EXIF orientation (JPEG APP1, PNG `eXIf`); ``ImageOrientation/up`` without one.
        public var orientation: ImageOrientation

        /// Creates metadata.
        public init(
            width: Int, height: Int, bitDepth: Int, colorType: ImageColorType, interlaced: Bool = false,
            progressive: Bool = false, hasICCProfile: Bool = false, hasTransparency: Bool = false,
            orientation: ImageOrientation = .up
        ) {
            self.width = width
            self.height = height
            self.bitDepth = bitDepth
            self.colorType = colorType
            self.interlaced = interlaced
            self.progressive = progressive
            self.hasICCProfile = hasICCProfile
            self.hasTransparency = hasTransparency
            self.orientation = orientation
        }
    }

    /// Creates the payload; `pixels` must hold `height * rowStride` bytes.
    public init(
        format: ImageFormat, width: Int, height: Int, channels: Int, bitDepth: Int, rowStride: Int,
        pixels: [UInt8], metadata: Metadata
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        self.rowStride = rowStride
        self.pixels = pixels
        self.metadata = metadata
    }

    /// The EXIF orientation; ``ImageOrientation/up`` without one.
    public var orientation: ImageOrientation { metadata.orientation }

    /// The properties (not the pixels), see the type's documentation.
    public var canonicalValue: Value {
        .object([
            "format": .string(format.rawValue),
            "width": .integer(Int64(width)),
            "height": .integer(Int64(height)),
            "channels": .integer(Int64(channels)),
            "bitDepth": .integer(Int64(bitDepth)),
            "orientation": .integer(Int64(metadata.orientation.rawValue)),
            "colorType": .string(metadata.colorType.rawValue),
            "interlaced": .bool(metadata.interlaced),
            "progressive": .bool(metadata.progressive),
            "hasICCProfile": .bool(metadata.hasICCProfile),
        ])
    }

    /// Equal when the layout, the metadata and every pixel are.
    public static func == (lhs: DecodedImage, rhs: DecodedImage) -> Bool {
        lhs === rhs
            || (lhs.format == rhs.format && lhs.width == rhs.width && lhs.height == rhs.height
                && lhs.channels == rhs.channels && lhs.bitDepth == rhs.bitDepth && lhs.rowStride == rhs.rowStride
                && lhs.metadata == rhs.metadata && lhs.pixels == rhs.pixels)
    }
}
