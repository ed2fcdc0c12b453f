// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// Helpers shared by the XML tests.
enum XMLSamples {
    /// A document with namespaces, attributes, entities, CDATA, comments and processing
    /// instructions.
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE feed [<!ENTITY who "Ada &amp; co">]>
        <!-- before -->
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:m="urn:meta" m:version="2">
          <title type="text">News from &who;</title>
          <entry m:id="1"><title>First</title><![CDATA[<raw> & ]]><m:tag>a</m:tag></entry>
          <entry m:id="2"><title>Caf\u{E9} &#x263A;</title><?render fast?><!-- inner --></entry>
        </feed>
        """

    /// Parses `text` into a document.
    static func document(_ text: String, limits: Limits = .default) throws -> XMLDocumentPayload {
        try XMLDocumentPayload(parsing: Array(text.utf8), limits: limits)
    }

    /// The events of `bytes`, fed in chunks of `chunkSize` bytes (0: whole).
    static func events(_ bytes: [UInt8], chunkSize: Int = 0, limits: Limits = .default) throws -> [XMLEvent] {
        var events: [XMLEvent] = []
        let parser = XMLEventReader(limits: limits) { events.append($0) }
        try feedInChunks(bytes, chunkSize: chunkSize) { try parser.feed($0) }
        try parser.finish()
        return events
    }

    /// The value `decoder` gives for `bytes` fed in chunks of `chunkSize` bytes (0: whole).
    static func decode(_ bytes: [UInt8], with decoder: any IncrementalReader, chunkSize: Int = 0) throws -> Value? {
        try feedInChunks(bytes, chunkSize: chunkSize) { try decoder.feed($0) }
        return try decoder.finish()
    }

    /// The canonical value of `text` from the document form and, checked equal, from the event
    /// form.
    static func canonical(_ text: String, limits: Limits = .default) throws -> Value {
        let document = try document(text, limits: limits)
        let events = try XMLEventResponseSerializer().decode(Array(text.utf8), contentType: nil, limits: limits)
        let fromDocument = Value.object([XMLDocumentPayload.kind: document.canonicalValue])
        #expect(events == fromDocument)
        return fromDocument
    }

    /// The repository's root folder.
    static let root = repositoryRoot

    /// Runs `xmllint` (libxml2-utils, installed by scripts/setup) with `arguments` and a file
    /// holding `input`.
    static func xmllint(_ arguments: [String], input: [UInt8]) throws -> (status: Int32, output: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-xml-\(UUID().uuidString).xml")
        try Data(input).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        return try run("/usr/bin/xmllint", arguments + [path.path], input: [])
    }

    /// Runs the `.venv` Python with `script`, `input` on standard input; returns standard output.
    static func python(_ script: String, input: [UInt8]) throws -> String {
        try run(root.appendingPathComponent(".venv/bin/python").path, ["-c", script], input: input).output
    }

    /// Runs `executable` with `input` on standard input; standard output through a file (no pipe
    /// to fill up), standard error dropped.
    static func run(
        _ executable: String, _ arguments: [String], input: [UInt8]
    ) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory
        let inputPath = directory.appendingPathComponent("satchel-xml-\(UUID().uuidString).in")
        let outputPath = directory.appendingPathComponent("satchel-xml-\(UUID().uuidString).out")
        try Data(input).write(to: inputPath)
        try Data().write(to: outputPath)
        defer {
            try? FileManager.default.removeItem(at: inputPath)
            try? FileManager.default.removeItem(at: outputPath)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputPath)
        process.standardOutput = try FileHandle(forWritingTo: outputPath)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: outputPath, encoding: .utf8))
    }
}
