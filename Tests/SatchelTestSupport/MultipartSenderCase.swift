// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A multipart body written the way a real sender writes it, and what Satchel must read from
/// it: Tests/Fixtures/multipart/sender-cases.json, read alike by the tests of the Swift API, the
/// C ABI and the command.
public struct MultipartSenderCase: Decodable, Sendable, CustomStringConvertible {
    /// A part as it must be read: its name, its file name (`filename*` when there is one) and
    /// its exact bytes, as UTF-8 text.
    public struct Part: Decodable, Sendable, Equatable {
        public var name: String?
        public var filename: String?
        public var body: String

        public init(name: String?, filename: String?, body: String) {
            self.name = name
            self.filename = filename
            self.body = body
        }
    }

    /// The error the body must fail with: its code's name, its byte offset, and phrases its
    /// message must contain.
    public struct Failure: Decodable, Sendable {
        public var code: String
        public var offset: Int
        public var mentions: [String]
    }

    /// What the case shows.
    public var name: String
    /// The Content-Type as the sender wrote it.
    public var contentType: String
    /// The body, as UTF-8 text.
    public var body: String
    /// Whether the case reads with CRLF line endings only.
    public var crlfOnly: Bool
    /// The parts, or `nil` when the body must fail.
    public var parts: [Part]?
    /// The failure, or `nil` when the body must be read.
    public var error: Failure?

    public var description: String { name }

    /// The body's bytes.
    public var bodyBytes: [UInt8] { Array(body.utf8) }

    private enum CodingKeys: String, CodingKey {
        case name = "case", contentType, body, crlfOnly, parts, error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        contentType = try container.decode(String.self, forKey: .contentType)
        body = try container.decode(String.self, forKey: .body)
        crlfOnly = try container.decodeIfPresent(Bool.self, forKey: .crlfOnly) ?? false
        parts = try container.decodeIfPresent([Part].self, forKey: .parts)
        error = try container.decodeIfPresent(Failure.self, forKey: .error)
    }

    /// Every case of the fixture.
    public static func all() throws -> [MultipartSenderCase] {
        let url = TestServers.root.appendingPathComponent("Tests/Fixtures/multipart/sender-cases.json")
        return try JSONDecoder().decode([MultipartSenderCase].self, from: Data(contentsOf: url))
    }
}
