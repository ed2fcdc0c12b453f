// SPDX-License-Identifier: Apache-2.0
import CSatchelFixtureImages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The `/png` and `/jpeg` fixtures: one 64×48 RGB picture — a red gradient left to right, a
/// green one top to bottom, blue constant — encoded by libpng and by libjpeg at quality 90.
/// The same every run: the encoders write no time stamps.
struct FixtureImages: Sendable {
    /// The picture's width in pixels.
    static let width = 64
    /// The picture's height in pixels.
    static let height = 48

    /// The PNG file (8-bit RGB, not interlaced).
    let png: [UInt8]
    /// The JPEG file (baseline JFIF).
    let jpeg: [UInt8]

    /// Encodes the picture.
    ///
    /// - Throws: ``FixtureServerError/invalidConfiguration(_:)`` when an encoder fails (out of memory).
    init() throws {
        let pixels = Self.pixels()
        png = try Self.encode("PNG") { satchel_fixture_png(pixels, UInt32(Self.width), UInt32(Self.height), &$0, &$1) }
        jpeg = try Self.encode("JPEG") {
            satchel_fixture_jpeg(pixels, UInt32(Self.width), UInt32(Self.height), 90, &$0, &$1)
        }
    }

    /// The RGB pixels, rows top to bottom.
    static func pixels() -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                pixels.append(UInt8(x * 255 / (width - 1)))
                pixels.append(UInt8(y * 255 / (height - 1)))
                pixels.append(160)
            }
        }
        return pixels
    }

    /// Runs a C encoder and copies its malloc'd output into an array.
    private static func encode(
        _ format: String, _ body: (inout UnsafeMutablePointer<UInt8>?, inout Int) -> Int32
    ) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard body(&output, &size) == 0, let output else {
            throw FixtureServerError.invalidConfiguration("the \(format) encoder failed")
        }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
