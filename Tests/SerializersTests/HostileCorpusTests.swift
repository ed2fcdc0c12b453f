// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// The hostile-input corpus: `Tests/Fixtures/hostile/` (files written by
/// `scripts/corpus hostile`) and `cases.json`, which says for each attack how it is
/// decoded and the specific outcome: an error code with words of its message (and its offset
/// where it is exact), or the safe value the parser must make of it.
@Suite struct HostileCorpusTests {
    @Test(arguments: HostileCase.all)
    func attackEndsAsExpected(_ attack: HostileCase) throws {
        switch attack.outcome() {
        case .failure(let error):
            let code = try #require(attack.code, "\(attack): expected a value, got \(error)")
            #expect(error.code.name == code, "\(attack): \(error)")
            if let words = attack.message {
                #expect(error.description.localizedCaseInsensitiveContains(words), "\(attack): \(error)")
            }
            if let offset = attack.offset {
                #expect(error.offset == offset, "\(attack): \(error)")
            }
        case .value(let value):
            #expect(attack.code == nil, "\(attack): expected \(attack.code ?? ""), got a value")
            try attack.check(value)
        case .encoded(let bytes):
            try attack.check(bytes)
        }
    }

    /// Every file of the corpus is attacked by at least one case (a file nobody reads tests nothing).
    @Test func everyFileHasACase() throws {
        let named = Set(HostileCase.all.compactMap(\.file))
        let enumerator = try #require(FileManager.default.enumerator(atPath: HostileCase.directory.path))
        var files: Set<String> = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = HostileCase.directory.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                path != "cases.json"
            {
                files.insert(path)
            }
        }
        #expect(files.subtracting(named).isEmpty, "files without a case: \(files.subtracting(named).sorted())")
        #expect(named.subtracting(files).isEmpty, "cases without a file: \(named.subtracting(files).sorted())")
    }

    /// Every response serializer of the standard registry, and the event serializer, is attacked.
    @Test func everySerializerIsAttacked() throws {
        let registry = Registry.standard()
        var attacked: Set<String> = []
        for attack in HostileCase.all {
            if attack.serializer == "xml-events" { attacked.insert(XMLEventResponseSerializer().name) }
            guard attack.file != nil, let contentType = attack.contentType else { continue }
            if let serializer = registry.responseSerializer(for: try MediaType(parsing: contentType)) {
                attacked.insert(serializer.name)
            }
        }
        for expected in ["json", "problem", "text", "form", "xml", "xml-events", "plist", "image", "multipart", "http"]
        {
            #expect(
                attacked.contains { $0.localizedCaseInsensitiveContains(expected) },
                "no attack on \(expected): \(attacked.sorted())")
        }
    }
}

/// One case of `Tests/Fixtures/hostile/cases.json`.
struct HostileCase: Decodable, Sendable, CustomStringConvertible {
    /// What an attack produced.
    enum Outcome {
        case failure(SatchelError)
        case value(Value?)
        case encoded([UInt8])
    }

    /// An error expected inside one part of a compound value.
    struct PartError: Decodable, Sendable {
        var index: Int
        var code: String
        var message: String
    }

    var file: String?
    var contentType: String?
    var serializer: String?
    var mediaType: String?
    var encode: [String: String]?
    var `as`: String?
    var limits: [String: Int]?
    var code: String?
    var message: String?
    var offset: Int?
    var contains: [String]?
    var absent: [String]?
    var safeFilenames: [String]?
    var partError: PartError?

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hostile")

    static let all: [HostileCase] = {
        struct Manifest: Decodable { var cases: [HostileCase] }
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent("cases.json"))
            return try JSONDecoder().decode(Manifest.self, from: data).cases
        } catch {
            Issue.record("cannot read the hostile corpus manifest: \(error)")
            return []
        }
    }()

    var description: String {
        let subject = file ?? mediaType.map { "media type \($0.debugDescription)" } ?? "encoding as \(`as` ?? "?")"
        return serializer.map { "\(subject) (\($0))" } ?? subject
    }

    /// The limits of the case: the defaults with the overrides of `limits` applied.
    func caseLimits() throws -> Limits {
        var result = Limits.default
        for (name, value) in limits ?? [:] {
            switch name {
            case "maxBodyBytes": result.maxBodyBytes = value
            case "maxDepth": result.maxDepth = value
            case "maxStringBytes": result.maxStringBytes = value
            case "maxPairs": result.maxPairs = value
            case "maxParts": result.maxParts = value
            case "maxPartHeaderBytes": result.maxPartHeaderBytes = value
            case "maxImagePixels": result.maxImagePixels = value
            case "maxEntityExpansions": result.maxEntityExpansions = value
            default: throw SatchelError(.invalidArgument, "unknown limit \(name) in cases.json")
            }
        }
        return result
    }

    /// Runs the attack: decodes the file, parses the media type or encodes the value.
    func outcome() -> Outcome {
        do {
            if let mediaType {
                return .value(.string(try MediaType(parsing: mediaType).description))
            }
            let registry = Registry.standard(limits: try caseLimits())
            if let encode, let type = `as` {
                let value = Value.object(
                    .init(
                        uniqueKeysWithValues: encode.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value)) }
                    ))
                return .encoded(try registry.encode(value, as: try MediaType(parsing: type)).body)
            }
            guard let file, let contentType else {
                throw SatchelError(.invalidArgument, "a case needs a file, a media type or a value")
            }
            let body = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(file)))
            let type = try MediaType(parsing: contentType)
            if serializer == "xml-events" {
                return .value(try XMLEventResponseSerializer().decode(body, contentType: type, limits: registry.limits))
            }
            return .value(try registry.decode(body, contentType: type))
        } catch let error as SatchelError {
            return .failure(error)
        } catch {
            return .failure(SatchelError(.internal, "not a SatchelError: \(error)"))
        }
    }

    /// Checks a decoded value against `contains`, `safeFilenames` and `partError`.
    func check(_ value: Value?) throws {
        let value = try #require(value, "\(self): no value")
        for text in contains ?? [] {
            #expect(value.canonicalJSON().contains(text), "\(self): \(value.canonicalJSON()) lacks \(text)")
        }
        if let safeFilenames {
            let parts = try #require(value.multipartParts, "\(self)")
            #expect(parts.map(\.part.safeFilename) == safeFilenames, "\(self)")
        }
        if let partError {
            let parts = try #require(value.multipartParts, "\(self)")
            let failure = try #require(
                parts[partError.index].value.decodingFailure, "\(self): part \(partError.index) decoded")
            #expect(failure.error.code.name == partError.code, "\(self): \(failure.error)")
            #expect(
                failure.error.description.localizedCaseInsensitiveContains(partError.message),
                "\(self): \(failure.error)")
        }
        #expect(
            contains != nil || safeFilenames != nil || partError != nil, "\(self): a value case must check something")
    }

    /// Checks an encoded body against `contains` and `absent`.
    func check(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        for expected in contains ?? [] {
            #expect(text.contains(expected), "\(self): \(text.debugDescription) lacks \(expected.debugDescription)")
        }
        for forbidden in absent ?? [] {
            #expect(
                !text.contains(forbidden), "\(self): \(text.debugDescription) contains \(forbidden.debugDescription)")
        }
        #expect(contains != nil || absent != nil, "\(self): an encoding case must check something")
    }
}
