// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// An image container format Satchel decodes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG, decoded by libpng.
    case png
    /// JPEG (JFIF, EXIF, Adobe), decoded by libjpeg-turbo.
    case jpeg
}

extension ImageFormat {
    /// The PNG signature.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// JPEG's start-of-image marker and the first byte of the next marker.
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Formats not decoded but recognised by a fixed magic number (`nil` matches any byte): the
    /// name errors give and the `image/` subtype sniffing reports
    /// (``ImageResponseSerializer/sniff(prefix:)``).
    static let otherSignatures: [(name: String, subtype: String, signatures: [[UInt8?]])] = [
        ("GIF", "gif", [Array("GIF87a".utf8), Array("GIF89a".utf8)]),
        ("WebP", "webp", [Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8)]),
        ("TIFF", "tiff", [[0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A]]),
    ]

    /// A format recognised by its first bytes but not decoded: a name and a test.
    private typealias Recognizer = (name: String, matches: @Sendable (ArraySlice<UInt8>) -> Bool)

    /// Formats recognised by their first bytes but not decoded.
    private static let unsupported: [Recognizer] = bySignature + byShape

    /// ``otherSignatures`` as tests.
    private static let bySignature: [Recognizer] = otherSignatures.map { entry in
        let signatures = entry.signatures
        let matches: @Sendable (ArraySlice<UInt8>) -> Bool = { bytes in
            signatures.contains { ContentSniffer.matches($0, at: bytes) }
        }
        return (entry.name, matches)
    }

    /// Formats told by more than a fixed prefix (a minimum length, a brand among several).
    private static let byShape: [Recognizer] = [
        ("BMP", { $0.starts(with: Array("BM".utf8)) && $0.count >= 14 }),
        (
            "HEIF/AVIF",
            { bytes in
                guard bytes.dropFirst(4).starts(with: Array("ftyp".utf8)) else { return false }
                let brand = String(decoding: bytes.dropFirst(8).prefix(4), as: UTF8.self)
                return ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1", "avif", "avis"].contains(brand)
            }
        ),
        (
            "JPEG 2000",
            {
                $0.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20])
                    || $0.starts(with: [0xFF, 0x4F, 0xFF, 0x51])
            }
        ),
        (
            "JPEG XL",
            { $0.starts(with: [0xFF, 0x0A]) || $0.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) }
        ),
        ("ICO", { $0.starts(with: [0x00, 0x00, 0x01, 0x00]) && $0.count >= 6 }),
        ("Photoshop", { $0.starts(with: Array("8BPS".utf8)) }),
        ("QOI", { $0.starts(with: Array("qoif".utf8)) }),
    ]

    /// How many leading bytes ``sniff(_:)`` reads at most.
    static let sniffedLength = 16

    /// The format of `bytes`, from their magic bytes (a Content-Type is never trusted).
    ///
    /// - Throws: ``SatchelError/Code/unsupportedFormat`` naming a recognised format Satchel does
    ///   not decode (GIF, WebP, BMP, TIFF, HEIF/AVIF, …) or saying the format is unknown;
    ///   ``SatchelError/Code/truncatedInput`` when the bytes end inside a PNG or JPEG signature.
    /// - Complexity: O(1).
    public static func sniff(_ bytes: [UInt8]) throws(SatchelError) -> ImageFormat {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: jpegSignature) { return .jpeg }
        if !bytes.isEmpty && (pngSignature.starts(with: bytes) || jpegSignature.starts(with: bytes)) {
            let name = pngSignature.starts(with: bytes) ? "PNG" : "JPEG"
            throw SatchelError(
                .truncatedInput, "truncated \(name) signature (\(bytes.count) bytes)", offset: bytes.count)
        }
        let head = bytes.prefix(sniffedLength)
        if let known = unsupported.first(where: { $0.matches(head) }) {
            throw SatchelError(.unsupportedFormat, "unsupported image format: \(known.name)")
        }
        let hex = bytes.prefix(8).map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        throw SatchelError(
            .unsupportedFormat,
            "unsupported image format: unknown image format (first bytes: \(hex.joined(separator: " ")))")
    }
}
