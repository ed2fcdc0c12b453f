// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// JSONTestSuite's parsing cases (../shared/conformance/json/test_parsing): every `y_` accepted,
/// every `n_` rejected, and each `i_` decided as documented in Sources/Satchel/Satchel.docc/RegistryAndSerializers.md.
@Suite struct JSONConformanceTests {
    static let directory: URL = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/conformance/json/test_parsing")

    static func cases(prefix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    /// The implementation-defined cases and what Satchel does with each: `nil` accepts, a code
    /// rejects with that error code.
    static let implementationDefined: [String: SatchelError.Code?] = [
        "i_number_double_huge_neg_exp.json": nil,  // underflows to 0.0
        "i_number_real_underflow.json": nil,  // underflows to 0.0
        "i_number_huge_exp.json": .numberOutOfRange,  // overflows Double
        "i_number_neg_int_huge_exp.json": .numberOutOfRange,
        "i_number_pos_double_huge_exp.json": .numberOutOfRange,
        "i_number_real_neg_overflow.json": .numberOutOfRange,
        "i_number_real_pos_overflow.json": .numberOutOfRange,
        "i_number_too_big_neg_int.json": .numberOutOfRange,  // beyond 64 bits; bigIntegers = .throw
        "i_number_too_big_pos_int.json": .numberOutOfRange,
        "i_number_very_big_negative_int.json": .numberOutOfRange,
        "i_object_key_lone_2nd_surrogate.json": .invalidEncoding,
        "i_string_1st_surrogate_but_2nd_missing.json": .invalidEncoding,
        "i_string_1st_valid_surrogate_2nd_invalid.json": .invalidEncoding,
        "i_string_UTF-16LE_with_BOM.json": .invalidEncoding,
        "i_string_UTF-8_invalid_sequence.json": .invalidEncoding,
        "i_string_UTF8_surrogate_U+D800.json": .invalidEncoding,
        "i_string_incomplete_surrogate_and_escape_valid.json": .invalidEncoding,
        "i_string_incomplete_surrogate_pair.json": .invalidEncoding,
        "i_string_incomplete_surrogates_escape_valid.json": .invalidEncoding,
        "i_string_invalid_lonely_surrogate.json": .invalidEncoding,
        "i_string_invalid_surrogate.json": .invalidEncoding,
        "i_string_invalid_utf-8.json": .invalidEncoding,
        "i_string_inverted_surrogates_U+1D11E.json": .invalidEncoding,
        "i_string_iso_latin_1.json": .invalidEncoding,
        "i_string_lone_second_surrogate.json": .invalidEncoding,
        "i_string_lone_utf8_continuation_byte.json": .invalidEncoding,
        "i_string_not_in_unicode_range.json": .invalidEncoding,
        "i_string_overlong_sequence_2_bytes.json": .invalidEncoding,
        "i_string_overlong_sequence_6_bytes.json": .invalidEncoding,
        "i_string_overlong_sequence_6_bytes_null.json": .invalidEncoding,
        "i_string_truncated-utf-8.json": .invalidEncoding,
        "i_string_utf16BE_no_BOM.json": .invalidEncoding,
        "i_string_utf16LE_no_BOM.json": .invalidEncoding,
        "i_structure_500_nested_arrays.json": nil,  // within maxDepth 512
        "i_structure_UTF-8_BOM_empty_object.json": nil,  // the BOM is skipped
    ]

    static func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    @Test func suiteIsPresent() {
        #expect(Self.cases(prefix: "y_").count == 95, "JSONTestSuite not found at \(Self.directory.path)")
        #expect(Self.cases(prefix: "n_").count == 188)
        #expect(Set(Self.cases(prefix: "i_")) == Set(Self.implementationDefined.keys))
    }

    @Test(arguments: cases(prefix: "y_"))
    func accepts(_ name: String) throws {
        let bytes = try Self.read(name)
        #expect(throws: Never.self) { _ = try JSONReader().read(bytes) }
    }

    @Test(arguments: cases(prefix: "y_"))
    func acceptsFedOneByteAtATime(_ name: String) throws {
        let bytes = try Self.read(name)
        let whole = try JSONReader().read(bytes)
        let reader = JSONReader().makeIncrementalReader()
        for byte in bytes { try reader.feed([byte]) }
        #expect(try reader.finish() == whole)
    }

    @Test(arguments: cases(prefix: "n_"))
    func rejects(_ name: String) throws {
        let bytes = try Self.read(name)
        do {
            let value = try JSONReader().read(bytes)
            Issue.record("\(name) was accepted as \(value)")
        } catch {
            #expect(error.code != .internal, "\(name): \(error)")
            #expect(error.offset != nil, "\(name): error without an offset: \(error)")
        }
    }

    @Test(arguments: cases(prefix: "i_"))
    func implementationDefined(_ name: String) throws {
        let bytes = try Self.read(name)
        guard let expected = Self.implementationDefined[name] else {
            Issue.record("\(name) has no documented decision")
            return
        }
        if let code = expected {
            do {
                let value = try JSONReader().read(bytes)
                Issue.record("\(name) was accepted as \(value)")
            } catch {
                #expect(error.code == code, "\(name): \(error)")
            }
        } else {
            #expect(throws: Never.self) { _ = try JSONReader().read(bytes) }
        }
    }
}

/// The typed path indexes the text with its own scanner; on every case of the suite it must
/// accept exactly what the reader accepts, with the same value, and refuse with the same error.
@Suite struct JSONModelDecoderConformanceTests {
    @Test(
        arguments: JSONConformanceTests.cases(prefix: "y_") + JSONConformanceTests.cases(prefix: "n_")
            + JSONConformanceTests.cases(prefix: "i_"))
    func agreesWithTheReader(_ name: String) throws {
        let bytes = try JSONConformanceTests.read(name)
        let read = Result { try JSONReader().read(bytes) }
        let decoded = Result { try JSONModelDecoder().decode(Value.self, from: bytes) }
        switch (read, decoded) {
        case (.success(let value), .success(let typed)):
            #expect(value == typed, "\(name)")
        case (.failure(let readError as SatchelError), .failure(let typedError as SatchelError)):
            #expect(readError.code == typedError.code, "\(name): \(readError) / \(typedError)")
        default:
            Issue.record("\(name): the reader gives \(read), the typed path \(decoded)")
        }
    }
}
