// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel
import XCTest

@testable import SatchelServer

/// `/bytes/N`: streaming, Range, If-Range, ETag; and the Range header parser on its own.
final class ByteRangeTests: XCTestCase {
    private static func expected(_ range: Range<Int64>) -> [UInt8] {
        range.map { UInt8($0 % 251) }
    }

    private static func get(
        _ session: Session, _ path: String, _ fields: [String: String] = [:], method: HTTPRequest.Method = .get
    ) async throws -> DataResponse {
        var headers = HTTPFields()
        for (name, value) in fields { headers[HTTPField.Name(name)!] = value }
        var request = SessionRequest(method, path, headers: headers)
        request.responseSerializer = BytesOnly()
        return try await session.result(for: request).get()
    }

    func testBytesStreamsTheDeterministicPatternWithLengthAndEntityTag() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let response = try await Self.get(session, "bytes/300000")
            XCTAssertEqual(response.response.status.code, 200)
            XCTAssertEqual(response.response.headerFields[.contentLength], "300000")
            XCTAssertEqual(response.response.headerFields[.eTag], "\"bytes-300000\"")
            XCTAssertEqual(response.response.headerFields[.acceptRanges], "bytes")
            XCTAssertEqual(response.body, Self.expected(0..<300_000))

            let chunked = try await Self.get(session, "bytes/70000?chunked=1")
            XCTAssertNil(chunked.response.headerFields[.contentLength])
            XCTAssertEqual(chunked.response.headerFields[.transferEncoding], "chunked")
            XCTAssertEqual(chunked.body, Self.expected(0..<70_000))

            let head = try await Self.get(session, "bytes/1234", method: .head)
            XCTAssertEqual(head.response.headerFields[.contentLength], "1234")
            XCTAssertEqual(head.body, [])
            let empty = try await Self.get(session, "bytes/0")
            XCTAssertEqual(empty.body, [])
        }
    }

    func testSingleRangesAnswerPartialContent() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let cases: [(header: String, range: Range<Int64>)] = [
                ("bytes=10-19", 10..<20), ("bytes=995-", 995..<1000), ("bytes=-5", 995..<1000),
                ("bytes=990-5000", 990..<1000), ("bytes=0-0", 0..<1), ("bytes=-5000", 0..<1000),
            ]
            for (header, range) in cases {
                let response = try await Self.get(session, "bytes/1000", ["Range": header])
                XCTAssertEqual(response.response.status.code, 206, header)
                XCTAssertEqual(
                    response.response.headerFields[.contentRange],
                    "bytes \(range.lowerBound)-\(range.upperBound - 1)/1000", header)
                XCTAssertEqual(response.body, Self.expected(range), header)
            }
        }
    }

    func testUnsatisfiableIgnoredAndConditionalRanges() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let past = try await Self.get(session, "bytes/1000", ["Range": "bytes=1000-"])
            XCTAssertEqual(past.response.status.code, 416)
            XCTAssertEqual(past.response.headerFields[.contentRange], "bytes */1000")
            XCTAssertEqual(past.response.headerFields[.contentType], "application/problem+json")
            let nothing = try await Self.get(session, "bytes/0", ["Range": "bytes=-1"])
            XCTAssertEqual(nothing.response.status.code, 416)

            for ignored in ["bytes=0-1,5-6", "items=0-1", "bytes=5-2", "bytes=x-"] {
                let response = try await Self.get(session, "bytes/100", ["Range": ignored])
                XCTAssertEqual(response.response.status.code, 200, ignored)
                XCTAssertEqual(response.body, Self.expected(0..<100), ignored)
            }

            let matching = try await Self.get(
                session, "bytes/100", ["Range": "bytes=50-", "If-Range": "\"bytes-100\""])
            XCTAssertEqual(matching.response.status.code, 206)
            XCTAssertEqual(matching.body, Self.expected(50..<100))
            let stale = try await Self.get(session, "bytes/100", ["Range": "bytes=50-", "If-Range": "\"bytes-99\""])
            XCTAssertEqual(stale.response.status.code, 200)
            XCTAssertEqual(stale.body, Self.expected(0..<100))
        }
    }

    func testTransportResumesAPartialDownload() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "serve-resume-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let destination = directory.appendingPathComponent("bytes").path
            // What an interrupted download leaves: the first bytes in DEST.part and a resume record.
            let url = server.baseURL + "/bytes/500000"
            try Data(Self.expected(0..<123_457)).write(
                to: URL(fileURLWithPath: ResumeData.partialPath(for: destination)))
            let record = try JSONSerialization.data(withJSONObject: ["url": url, "entityTag": "\"bytes-500000\""])
            try record.write(to: URL(fileURLWithPath: ResumeData.recordPath(for: destination)))
            let resumed = try await session.download(url, to: destination, resume: true)
            XCTAssertNil(resumed.error)
            XCTAssertEqual(resumed.response.status.code, 206)
            XCTAssertEqual(resumed.resumedFrom, 123_457)
            XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: destination))), Self.expected(0..<500_000))
        }
    }

    func testRangeHeaderParser() {
        XCTAssertEqual(ByteRangeRequest(header: " bytes=0-9 ", length: 5), .satisfiable(0..<5))
        XCTAssertEqual(ByteRangeRequest(header: "BYTES=3-", length: 5), .satisfiable(3..<5))
        XCTAssertEqual(ByteRangeRequest(header: "bytes=-0", length: 5), .unsatisfiable)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=5-", length: 5), .unsatisfiable)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=", length: 5), .ignored)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=-", length: 5), .ignored)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=1-2-3", length: 5), .ignored)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=99999999999999999999-", length: 5), .ignored)
        XCTAssertEqual(ByteRangeRequest(header: "bytes=+1-2", length: 5), .ignored)
    }
}

/// Keeps the raw body: no decoding, every status acceptable.
private struct BytesOnly: ResponseSerializer {
    var name: String { "bytes" }
    var acceptableContentTypes: MediaRangeList { MediaRangeList(accepting: [.any]) }
    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        .bytes(body)
    }
    func serialize(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse {
        DecodedResponse(response: plan.response, value: .bytes(body), error: nil, serializerName: name)
    }
}
