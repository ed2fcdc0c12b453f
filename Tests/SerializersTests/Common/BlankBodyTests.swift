// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// One rule for bodies that carry no value, in every format of the standard registry, whole and
/// fed in one-byte chunks (``BlankBody``).
@Suite("Blank bodies: one rule for every format")
struct BlankBodyTests {
    /// Every media type the standard registry decodes, and whether white space alone is no value.
    static let formats: [(type: String, ignoresWhiteSpace: Bool)] = [
        ("application/json", true), ("application/problem+json", true), ("application/xml", true),
        ("application/x-plist", true), ("application/x-www-form-urlencoded", false),
        ("multipart/form-data; boundary=B", false), ("text/plain", false), ("image/png", false),
        ("application/http", false),
    ]

    static let blanks: [[UInt8]] = [
        [0x20], [0x20, 0x0D, 0x0A, 0x09], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0x0A],
    ]

    /// The body decoded whole through the registry, and fed byte by byte to the serializer's
    /// incremental reader when it has one; both results.
    static func decode(_ body: [UInt8], as text: String) throws -> [Result<Value?, SatchelError>] {
        let registry = Registry.standard()
        let type = try MediaType(parsing: text)
        func outcome(_ work: () throws -> Value?) -> Result<Value?, SatchelError> {
            do { return .success(try work()) } catch {
                return .failure(error as? SatchelError ?? SatchelError(.internal, "\(error)"))
            }
        }
        var outcomes = [outcome { try registry.decode(body, contentType: type) }]
        let serializer = try #require(registry.responseSerializer(for: type))
        if let reader = serializer.makeIncrementalReader(contentType: type, limits: .default) {
            outcomes.append(
                outcome {
                    for byte in body { try reader.feed([byte]) }
                    return try reader.finish()
                })
        }
        return outcomes
    }

    @Test("an empty body is no value in every format", arguments: formats.map(\.type))
    func emptyBody(_ type: String) throws {
        for outcome in try Self.decode([], as: type) {
            #expect(try outcome.get() == nil, "\(type)")
        }
    }

    @Test("white space alone is no value where the grammar allows it around a document, content elsewhere")
    func whiteSpace() throws {
        for (type, ignoresWhiteSpace) in Self.formats {
            for body in Self.blanks {
                for outcome in try Self.decode(body, as: type) {
                    if ignoresWhiteSpace {
                        #expect(try outcome.get() == nil, "\(type) \(body)")
                    } else if case .success(let value) = outcome {
                        // Content: a value (text, a form) or an error saying what is wrong, never no value.
                        #expect(value != nil, "\(type) \(body)")
                    }
                }
            }
        }
        #expect(try Self.decode([0x20], as: "text/plain").allSatisfy { try $0.get() == " " })
    }

    @Test("a body with a value after white space still decodes, and a lone half byte order mark is content")
    func notBlank() throws {
        #expect(try Self.decode(Array(" \n[1]".utf8), as: "application/json").allSatisfy { try $0.get() == [1] })
        for body: [UInt8] in [[0xEF], [0xEF, 0xBB], [0xEF, 0x20]] {
            for outcome in try Self.decode(body, as: "application/json") {
                if case .success(let value) = outcome {
                    Issue.record("\(body) decoded to \(String(describing: value))")
                }
            }
        }
    }
}
