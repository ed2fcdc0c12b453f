// SPDX-License-Identifier: Apache-2.0
import CSatchel
import Foundation
import SerializerRegistry
import Testing

@testable import CAPI

/// Every `SATCHEL_E_*` value of include/satchel.h is a named ``SatchelError/Code`` of the same
/// number, and every code has its status: the C and Swift sides cannot drift apart.
@Suite struct StatusCodeTests {
    /// The header's status names and the Swift codes they stand for.
    static let expected: [String: SatchelError.Code] = [
        "SATCHEL_E_INVALID_ARGUMENT": .invalidArgument, "SATCHEL_E_SYNTAX": .syntaxError,
        "SATCHEL_E_TRUNCATED": .truncatedInput, "SATCHEL_E_LIMIT": .limitExceeded,
        "SATCHEL_E_ENCODING": .invalidEncoding,
        "SATCHEL_E_NUMBER_RANGE": .numberOutOfRange, "SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE": .unacceptableContentType,
        "SATCHEL_E_UNACCEPTABLE_STATUS": .unacceptableStatusCode, "SATCHEL_E_TYPE_MISMATCH": .typeMismatch,
        "SATCHEL_E_NOT_FOUND": .valueNotFound, "SATCHEL_E_UNENCODABLE": .unencodableValue,
        "SATCHEL_E_INVALID_MEDIA_TYPE": .invalidMediaType, "SATCHEL_E_IO": .io, "SATCHEL_E_INTERNAL": .internal,
        "SATCHEL_E_UNSUPPORTED_FORMAT": .unsupportedFormat, "SATCHEL_E_CANCELLED": .cancelled,
        "SATCHEL_E_TIMED_OUT": .timedOut, "SATCHEL_E_CANNOT_CONNECT": .cannotConnect, "SATCHEL_E_TLS": .tlsFailure,
        "SATCHEL_E_TOO_MANY_REDIRECTS": .tooManyRedirects, "SATCHEL_E_NETWORK": .networkFailure,
        "SATCHEL_E_NO_MEMORY": .noMemory, "SATCHEL_E_MISUSE": .misuse, "SATCHEL_E_ABI_MISMATCH": .abiMismatch,
        "SATCHEL_E_PLUGIN": .plugin,
    ]

    /// `SATCHEL_E_NAME = N` lines of the header's `satchel_status` enum.
    static func headerStatuses() throws -> [(name: String, value: Int32)] {
        let header = try String(contentsOf: CLibrary.root.appendingPathComponent("include/satchel.h"), encoding: .utf8)
        return header.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            guard words.count >= 3, words[0].hasPrefix("SATCHEL_E_"), words[1] == "=", let value = Int32(words[2])
            else { return nil }
            return (words[0], value)
        }
    }

    @Test func everyHeaderStatusIsANamedCodeOfTheSameNumber() throws {
        let statuses = try Self.headerStatuses()
        #expect(statuses.count == Self.expected.count)
        for (name, value) in statuses {
            let code = try #require(Self.expected[name], "\(name) has no Swift code in this table")
            #expect(code.rawValue == value, "\(name) is \(value) in the header, \(code.rawValue) in Swift")
            #expect(SatchelError.Code(rawValue: value).name == code.name)
            #expect(!code.name.hasPrefix("code"), "\(name) prints as \(code.name)")
        }
    }

    @Test func everyCodeHasAHeaderStatus() throws {
        let values = Set(try Self.headerStatuses().map(\.value))
        #expect(SatchelError.Code.allCases.count == Self.expected.count)
        #expect(Set(SatchelError.Code.allCases.map(\.name)).count == SatchelError.Code.allCases.count)
        for code in SatchelError.Code.allCases {
            #expect(values.contains(code.rawValue), "\(code) is missing from include/satchel.h")
        }
        #expect(SatchelError.Code(rawValue: 26).name == "code26")
    }

    /// The messages a C caller reads start with the header's name of the status.
    @Test func cMessagesAreLedByTheHeadersStatusName() throws {
        for (name, value) in try Self.headerStatuses() {
            #expect(satchel_status(rawValue: UInt32(value)).name == name)
        }
        let error = SatchelError(.syntaxError, "expected ']'", offset: 4)
        #expect(error.cDescription == "SATCHEL_E_SYNTAX: expected ']' (at byte 4)", "\(error.cDescription)")
        #expect(SatchelError(.misuse, "twice").cDescription == "SATCHEL_E_MISUSE: twice")
    }
}
