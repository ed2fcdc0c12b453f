// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// The images scripts/generate-test-images.py writes (once per test run, into a temporary
/// folder) with their independent RGBA8 references.
enum ImageSamples {
    /// One generated image and what its decode must give.
    struct Case: Decodable, Sendable, CustomStringConvertible {
        let name: String
        let file: String
        let reference: String
        let format: String
        let width: Int
        let height: Int
        let colorType: String
        let bitDepth: Int
        let interlaced: Bool
        let progressive: Bool
        let hasICCProfile: Bool
        let hasTransparency: Bool
        let orientation: Int
        let scale: Int
        let outWidth: Int
        let outHeight: Int

        var description: String { name }

        /// The image file's bytes.
        func bytes() throws -> [UInt8] { try ImageSamples.load(file) }
        /// The expected RGBA8 pixels.
        func referencePixels() throws -> [UInt8] { try ImageSamples.load(reference) }
    }

    private struct Manifest: Decodable {
        let cases: [Case]
        let unsupported: [String: String]
    }

    static let root = repositoryRoot
    static let python = root.appendingPathComponent(".venv/bin/python")
    static let script = root.appendingPathComponent("scripts/generate-test-images.py")

    /// The folder the script wrote, or why it could not run.
    static let directory: Result<URL, SatchelError> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "satchel-images-\(UUID().uuidString)")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            return .failure(
                SatchelError(.io, "\(python.path) is missing: run scripts/setup (it installs Pillow in .venv)"))
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, folder.path]
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return .failure(SatchelError(.io, "cannot run \(script.path): \(error)"))
        }
        guard process.terminationStatus == 0 else {
            return .failure(SatchelError(.io, "\(script.path) failed with status \(process.terminationStatus)"))
        }
        return .success(folder)
    }()

    private static let manifest: Manifest? = {
        guard let folder = try? directory.get(),
            let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()

    /// Every generated case (empty when the script could not run; ``requireGenerated()`` says why).
    static var cases: [Case] { manifest?.cases ?? [] }
    /// The cases of one format.
    static func cases(_ format: String) -> [Case] { cases.filter { $0.format == format } }
    /// Unsupported-format files and the format name the error must give.
    static var unsupported: [(file: String, name: String)] {
        (manifest?.unsupported ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Records an issue when the images could not be generated.
    static func requireGenerated() throws {
        _ = try directory.get()
        #expect(manifest != nil, "manifest.json is missing or unreadable")
    }

    /// A file from the generated folder.
    static func load(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: try directory.get().appendingPathComponent(name)))
    }

    /// A case's bytes by name.
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let sample = cases.first(where: { $0.name == name }) else {
            throw SatchelError(.valueNotFound, "no generated image named \(name)")
        }
        return try sample.bytes()
    }
}

/// Decodes `bytes` with `options` and `limits`.
func decodeImage(
    _ bytes: [UInt8], _ options: ImageReadingOptions = ImageReadingOptions(), limits: Limits = .default
) throws -> DecodedImage {
    try ImageReader(options: options, limits: limits).read(bytes)
}

/// The largest difference between two equally long sample buffers.
func maxSampleDifference(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    zip(lhs, rhs).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
}

/// The PNG CRC-32 of `bytes` (for building hostile chunks).
func pngCRC(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A PNG chunk: length, type, data, CRC.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(pngCRC(typed))
}

/// Four big-endian bytes.
func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}
