// SPDX-License-Identifier: Apache-2.0
import CAPI
import CSatchel
import Foundation
import SatchelTestSupport
import Testing

/// `satchel_registry_visit` gives a visitor what `satchel_registry_decode` then
/// `satchel_value_visit` give it, call for call, and the same status: on every JSONTestSuite
/// parsing case, on the cases the walk handles apart (duplicate names, escapes, numbers at the
/// limits, depth, a byte order mark, UTF-16), and on other formats. A callback can stop it, and
/// bad arguments are refused.
@Suite struct RegistryVisitTests {
    /// The calls a visitor received, one line each.
    final class Transcript {
        var lines: [String] = []
        var stopAfter = Int.max

        func record(_ line: String) -> Int32 {
            lines.append(line)
            return lines.count >= stopAfter ? 1 : 0
        }

        static func from(_ userdata: UnsafeMutableRawPointer?) -> Transcript {
            Unmanaged<Transcript>.fromOpaque(userdata!).takeUnretainedValue()
        }

        static func text(_ pointer: UnsafePointer<CChar>?, _ count: Int) -> String {
            let bytes = UnsafeRawBufferPointer(start: pointer, count: count)
            return bytes.map { String(format: "%02x", $0) }.joined()
        }
    }

    static let visitor: satchel_visitor = {
        var visitor = satchel_visitor()
        visitor.struct_size = UInt32(MemoryLayout<satchel_visitor>.size)
        visitor.abi_version = UInt32(SATCHEL_ABI_VERSION)
        visitor.null_value = { (user: UnsafeMutableRawPointer?) -> Int32 in Transcript.from(user).record("null") }
        visitor.boolean = { (user: UnsafeMutableRawPointer?, flag: Int32) -> Int32 in
            Transcript.from(user).record("bool \(flag)")
        }
        visitor.int64 = { (user: UnsafeMutableRawPointer?, number: Int64) -> Int32 in
            Transcript.from(user).record("int \(number)")
        }
        visitor.uint64 = { (user: UnsafeMutableRawPointer?, number: UInt64) -> Int32 in
            Transcript.from(user).record("uint \(number)")
        }
        visitor.real = { (user: UnsafeMutableRawPointer?, number: Double) -> Int32 in
            Transcript.from(user).record("real \(number.bitPattern)")
        }
        visitor.string = { (user: UnsafeMutableRawPointer?, text: UnsafePointer<CChar>?, count: Int) -> Int32 in
            Transcript.from(user).record("string " + Transcript.text(text, count))
        }
        visitor.bytes = { (user: UnsafeMutableRawPointer?, _: UnsafePointer<UInt8>?, count: Int) -> Int32 in
            Transcript.from(user).record("bytes \(count)")
        }
        visitor.date = { (user: UnsafeMutableRawPointer?, seconds: Double) -> Int32 in
            Transcript.from(user).record("date \(seconds)")
        }
        visitor.begin_array = { (user: UnsafeMutableRawPointer?, count: Int) -> Int32 in
            Transcript.from(user).record("[ \(count)")
        }
        visitor.end_array = { (user: UnsafeMutableRawPointer?) -> Int32 in Transcript.from(user).record("]") }
        visitor.begin_object = { (user: UnsafeMutableRawPointer?, count: Int) -> Int32 in
            Transcript.from(user).record("{ \(count)")
        }
        visitor.key = { (user: UnsafeMutableRawPointer?, text: UnsafePointer<CChar>?, count: Int) -> Int32 in
            Transcript.from(user).record("key " + Transcript.text(text, count))
        }
        visitor.end_object = { (user: UnsafeMutableRawPointer?) -> Int32 in Transcript.from(user).record("}") }
        visitor.other = { (user: UnsafeMutableRawPointer?, _: OpaquePointer?) -> Int32 in
            Transcript.from(user).record("other")
        }
        return visitor
    }()

    /// What a visit gives: its status and the calls.
    struct Outcome: Equatable, CustomStringConvertible {
        var status: satchel_status
        var lines: [String]
        var description: String { "status \(status.rawValue): \(lines.prefix(12).joined(separator: ", "))" }
    }

    static func decodeThenVisit(_ body: [UInt8], _ contentType: String?, stopAfter: Int = .max) -> Outcome {
        var registry: OpaquePointer?
        _ = satchel_registry_create(&registry)
        defer { satchel_registry_free(registry) }
        var value: OpaquePointer?
        var status = satchel_registry_decode(
            &value, registry, contentType, contentType == nil ? 0 : SATCHEL_NTS, body, body.count)
        defer { satchel_value_free(value) }
        let transcript = Transcript()
        transcript.stopAfter = stopAfter
        var visitor = visitor
        if status == SATCHEL_OK, let value {
            status = satchel_value_visit(value, &visitor, Unmanaged.passUnretained(transcript).toOpaque())
        }
        return Outcome(status: status, lines: transcript.lines)
    }

    static func visit(_ body: [UInt8], _ contentType: String?, stopAfter: Int = .max) -> Outcome {
        var registry: OpaquePointer?
        _ = satchel_registry_create(&registry)
        defer { satchel_registry_free(registry) }
        let transcript = Transcript()
        transcript.stopAfter = stopAfter
        var visitor = visitor
        let status = satchel_registry_visit(
            registry, contentType, contentType == nil ? 0 : SATCHEL_NTS, body, body.count, &visitor,
            Unmanaged.passUnretained(transcript).toOpaque())
        return Outcome(status: status, lines: transcript.lines)
    }

    static let conformance: [String] = {
        let directory = CLibrary.root.deletingLastPathComponent().appendingPathComponent(
            "shared/conformance/json/test_parsing")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0).path }
    }()

    @Test func everyConformanceCaseMatchesDecodeThenVisit() throws {
        try #require(Self.conformance.count > 300, "JSONTestSuite's cases are missing")
        for path in Self.conformance {
            let body = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let expected = Self.decodeThenVisit(body, "application/json")
            let walked = Self.visit(body, "application/json")
            if expected.status == SATCHEL_OK {
                #expect(walked == expected, "\(path)")
            } else {
                // An error may come after some calls; the status is what must agree.
                #expect(walked.status == expected.status, "\(path): \(walked) against \(expected)")
            }
        }
    }

    static let documents: [(String, String?)] =
        [
            (#"{"a":1,"b":2,"a":3}"#, "application/json"),  // a duplicate: first place, last value
            (#"{"a":1,"\u0061":[2],"b":null}"#, "application/json"),  // the same name escaped
            (#"{"k\u00e9y":"v\n\"\ud83d\ude00","":""}"#, "application/json"),
            (
                #"[9223372036854775807,-9223372036854775808,18446744073709551615,1.5e300,-0.0,0,1E2]"#,
                "application/json"
            ),
            (#"[18446744073709551616]"#, "application/json"),  // beyond 64 bits
            (#"[1,2,1e400]"#, "application/json"),  // out of range, late
            (String(repeating: "[", count: 400) + String(repeating: "]", count: 400), "application/json"),
            (String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "application/json"),
            ("\u{FEFF}{\"bom\":true}", "application/json"),
            ("   ", "application/json"),  // blank: no value, no call
            ("", nil),
            (#"{"a":[1,{"b":[]}],"c":{}}"#, "application/vnd.api+json"),
            (#"{"truncated":[1,2"#, "application/json"),
            ("a=1&b=2&a=3", "application/x-www-form-urlencoded"),
            (
                "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key><array><integer>1</integer><date>2001-01-01T00:00:00Z</date><data>AAE=</data></array></dict></plist>",
                "application/x-plist"
            ),
            (#"{"a":1}"#, nil),  // sniffed
            (#"{"a":1}"#, "application/unknown-thing"),
        ]
        + (0..<40).map { count in
            // Objects past the pairwise check of names, with and without a duplicate.
            let members = (0..<count).map { "\"m\($0 % max(count - 1, 1))\":\($0)" }.joined(separator: ",")
            return ("{\(members)}", "application/json")
        }

    @Test(arguments: documents.indices)
    func documentMatchesDecodeThenVisit(index: Int) {
        let (text, contentType) = Self.documents[index]
        let expected = Self.decodeThenVisit(Array(text.utf8), contentType)
        let walked = Self.visit(Array(text.utf8), contentType)
        if expected.status == SATCHEL_OK {
            #expect(walked == expected)
        } else {
            #expect(walked.status == expected.status, "\(walked) against \(expected)")
        }
    }

    @Test func utf16IsWalkedAsItsValue() {
        let text = #"{"wide":["text",1]}"#
        var body: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { body += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let expected = Self.decodeThenVisit(body, "application/json; charset=utf-16")
        #expect(expected.status == SATCHEL_OK)
        #expect(Self.visit(body, "application/json; charset=utf-16") == expected)
    }

    @Test(arguments: [1, 2, 5])
    func aCallbackStopsTheWalk(after calls: Int) {
        let body = Array(#"{"a":[1,2,3],"b":"x"}"#.utf8)
        let walked = Self.visit(body, "application/json", stopAfter: calls)
        #expect(walked.status == SATCHEL_E_CANCELLED)
        #expect(walked.lines.count == calls)
        #expect(walked.lines == Self.decodeThenVisit(body, "application/json", stopAfter: calls).lines)
    }

    /// Limits set on the registry hold for the walk as for a decode: an oversized body is refused
    /// before a byte is read, and too many members or too deep a text part-way.
    @Test func theRegistrysLimitsHold() {
        var registry: OpaquePointer?
        _ = satchel_registry_create(&registry)
        defer { satchel_registry_free(registry) }
        #expect(satchel_registry_set_limit(registry, SATCHEL_LIMIT_BODY_BYTES, 8) == SATCHEL_OK)
        #expect(satchel_registry_set_limit(registry, SATCHEL_LIMIT_PAIRS, 2) == SATCHEL_OK)
        #expect(satchel_registry_set_limit(registry, SATCHEL_LIMIT_DEPTH, 3) == SATCHEL_OK)
        let transcript = Transcript()
        var visitor = Self.visitor
        func visit(_ text: String) -> satchel_status {
            let body = Array(text.utf8)
            return satchel_registry_visit(
                registry, "application/json", SATCHEL_NTS, body, body.count, &visitor,
                Unmanaged.passUnretained(transcript).toOpaque())
        }
        #expect(visit("[1,2,3,4,5]") == SATCHEL_E_LIMIT)
        #expect(transcript.lines.isEmpty)
        #expect(satchel_registry_set_limit(registry, SATCHEL_LIMIT_BODY_BYTES, 1 << 20) == SATCHEL_OK)
        #expect(visit(#"{"a":1,"b":2,"c":3}"#) == SATCHEL_E_LIMIT)
        #expect(visit("[[[[1]]]]") == SATCHEL_E_LIMIT)
        #expect(visit(#"{"a":1,"b":[[2]]}"#) == SATCHEL_OK)
    }

    @Test func badArgumentsAreRefused() {
        var registry: OpaquePointer?
        _ = satchel_registry_create(&registry)
        defer { satchel_registry_free(registry) }
        var visitor = Self.visitor
        let body = Array("[1]".utf8)
        #expect(
            satchel_registry_visit(nil, "application/json", SATCHEL_NTS, body, 3, &visitor, nil)
                == SATCHEL_E_INVALID_ARGUMENT)
        #expect(
            satchel_registry_visit(registry, "application/json", SATCHEL_NTS, body, 3, nil, nil)
                == SATCHEL_E_INVALID_ARGUMENT)
        #expect(String(cString: satchel_last_error_message()).contains("visitor"))
        #expect(
            satchel_registry_visit(registry, "application/json", SATCHEL_NTS, nil, 3, &visitor, nil)
                == SATCHEL_E_INVALID_ARGUMENT)
        #expect(
            satchel_registry_visit(registry, "not a type", SATCHEL_NTS, body, 3, &visitor, nil)
                == SATCHEL_E_INVALID_MEDIA_TYPE)
        visitor.struct_size = 8
        #expect(
            satchel_registry_visit(registry, "application/json", SATCHEL_NTS, body, 3, &visitor, nil)
                == SATCHEL_E_ABI_MISMATCH)
        // A visitor with no callbacks walks and calls nothing.
        var empty = satchel_visitor()
        empty.struct_size = UInt32(MemoryLayout<satchel_visitor>.size)
        empty.abi_version = UInt32(SATCHEL_ABI_VERSION)
        #expect(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, body, 3, &empty, nil) == SATCHEL_OK)
    }
}
