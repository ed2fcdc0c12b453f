// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Sample bodies in Tests/Fixtures/multipart and helpers shared by the multipart parser tests.
enum MultipartSamples {
    /// The repository's root folder.
    static let root = repositoryRoot

    /// Tests/Fixtures/multipart.
    static let directory = root.appendingPathComponent("Tests/Fixtures/multipart")

    /// The fixture names (`NAME.body` with `NAME.content-type`).
    static let names = ["curl-form", "requests-form", "chrome-form", "firefox-form", "rfc-features"]

    /// A fixture's body and Content-Type.
    static func load(_ name: String) throws -> (body: [UInt8], contentType: MediaType) {
        try load(name, in: directory)
    }

    /// `NAME.body` and `NAME.content-type` from `folder`.
    static func load(_ name: String, in folder: URL) throws -> (body: [UInt8], contentType: MediaType) {
        let body = try Data(contentsOf: folder.appendingPathComponent("\(name).body"))
        let type = try String(contentsOf: folder.appendingPathComponent("\(name).content-type"), encoding: .utf8)
        return (Array(body), try MediaType(parsing: type))
    }
}

/// Parses `body` fed in chunks of `chunkSize` bytes (0: whole).
func parseParts(
    _ body: [UInt8], contentType: MediaType, chunkSize: Int = 0,
    options: MultipartReader.Options = MultipartReader.Options(), limits: Limits = .default
) throws -> [MultipartReader.Part] {
    let parser = try MultipartReader(contentType: contentType, options: options, limits: limits)
    var parts: [MultipartReader.Part] = []
    let size = chunkSize > 0 ? chunkSize : max(body.count, 1)
    var start = 0
    repeat {
        let end = min(start + size, body.count)
        parts += try parser.feed(Array(body[start..<end]))
        start = end
    } while start < body.count
    try parser.finish()
    return parts
}

/// The error thrown while parsing `body`, if any.
func parseFailure(
    _ body: [UInt8], boundary: String = "B", chunkSize: Int = 0, isFormData: Bool = true,
    options: MultipartReader.Options = MultipartReader.Options(), limits: Limits = .default
) -> SatchelError? {
    do {
        let type = MediaType(type: "multipart", subtype: isFormData ? "form-data" : "mixed")
            .setting(parameter: "boundary", to: boundary)
        _ = try parseParts(body, contentType: type, chunkSize: chunkSize, options: options, limits: limits)
        return nil
    } catch let error as SatchelError {
        return error
    } catch {
        Issue.record("not a SatchelError: \(error)")
        return nil
    }
}

/// UTF-8 bytes of a body written with `\r\n` spelled out.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A registry with the standard serializers and a multipart serializer wired to it, as
/// `Registry.standard()` is meant to have.
func multipartRegistry(
    options: MultipartReader.Options = MultipartReader.Options(), rawParts: Bool = false, limits: Limits = .default
) -> Registry {
    let registry = Registry.standard(limits: limits)
    registry.register(
        MultipartResponseSerializer(options: options, rawParts: rawParts, registry: registry), priority: 1)
    return registry
}

/// The parts of a decoded multipart value.
func multipartElements(_ value: Value?) -> [MultipartParts.Element] {
    guard case .payload(let payload)? = value, let parts = payload as? MultipartParts else {
        Issue.record("not a multipart value: \(String(describing: value))")
        return []
    }
    return parts.elements
}

/// Runs the virtual environment's Python with scripts/multipart_roundtrip.py.
enum PythonMultipart {
    static let python = MultipartSamples.root.appendingPathComponent(".venv/bin/python")
    static let script = MultipartSamples.root.appendingPathComponent("scripts/multipart_roundtrip.py")

    /// Whether `.venv` exists with the parsers installed; records a failure telling the reader
    /// to run scripts/setup when it does not.
    static func available() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            Issue.record(
                """
                \(python.path) is missing: run scripts/setup, which creates the virtual environment \
                .venv with Python's multipart, werkzeug, requests and urllib3 for these tests
                """)
            return false
        }
        return true
    }

    /// Runs the script with `arguments` and returns its standard output.
    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path] + arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-py-\(UUID().uuidString)")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-py-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
            throw SatchelError(.internal, "multipart_roundtrip.py \(arguments.first ?? "") failed: \(message)")
        }
        return try Data(contentsOf: output)
    }

    /// What an independent parser found: fields as (name, bytes), files as (name, filename,
    /// content type, bytes), each in body order.
    struct Form: Equatable, CustomStringConvertible {
        var fields: [[String]]
        var files: [[String?]]

        var description: String { "fields: \(fields)\nfiles: \(files)" }

        init(json: Data) throws {
            let object = try JSONSerialization.jsonObject(with: json) as? [String: [[Any]]] ?? [:]
            fields = (object["fields"] ?? []).map { $0.map { $0 as? String ?? "" } }
            files = (object["files"] ?? []).map { $0.map { $0 as? String } }
        }

        /// The same shape from Satchel's parts; a file's name is its `filename*` when it has one.
        init(parts: [MultipartReader.Part]) throws {
            fields = []
            files = []
            for part in parts {
                let data = Data(try part.bytes()).base64EncodedString()
                if let filename = part.filenameStar ?? part.filename {
                    files.append([part.name, filename, part.contentType, data])
                } else {
                    fields.append([part.name ?? "", data])
                }
            }
        }
    }
}
