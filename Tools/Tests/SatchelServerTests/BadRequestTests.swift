// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel
import XCTest

@testable import SatchelServer

/// Bad requests get 400, 404, 405 or 413 with a problem+json body, and the server lives on.
final class BadRequestTests: XCTestCase {
    private static func assertProblem(
        _ response: DataResponse, _ status: Int, containing text: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(response.response.status.code, status, file: file, line: line)
        XCTAssertEqual(
            response.response.headerFields[.contentType], "application/problem+json", file: file, line: line)
        let problem = response.error?.problemDetails
        XCTAssertEqual(problem?.status, status, file: file, line: line)
        XCTAssertTrue(
            problem?.detail?.contains(text) ?? false, "\(problem?.detail ?? "no detail")", file: file, line: line)
    }

    func testBadPathArguments() async throws {
        var configuration = FixtureServerConfiguration()
        configuration.maxStreamBytes = 1000
        try await ServerTestSupport.withServer(configuration) { server in
            let session = try ServerTestSupport.session(server)
            for path in ["bytes/abc", "bytes/-1", "bytes/1001", "bytes/99999999999999999999", "bytes/1e3"] {
                Self.assertProblem(try await session.fetch(path), 400, containing: "/bytes/N needs N from 0 to 1000")
            }
            for path in ["status/99", "status/600", "status/abc", "status/"] {
                let response = try await session.fetch(path)
                XCTAssertTrue([400, 404].contains(response.response.status.code), path)
            }
            Self.assertProblem(try await session.fetch("status/1000"), 400, containing: "200 to 599")
            Self.assertProblem(try await session.fetch("redirect/0"), 400, containing: "/redirect/N")
            Self.assertProblem(try await session.fetch("redirect/33"), 400, containing: "/redirect/N")
            Self.assertProblem(try await session.fetch("delay/-1"), 400, containing: "/delay/S")
            Self.assertProblem(try await session.fetch("delay/nan"), 400, containing: "/delay/S")
            Self.assertProblem(try await session.fetch("nothing/here"), 404, containing: "no fixture endpoint")
            Self.assertProblem(try await session.fetch("json/extra"), 404, containing: "no fixture endpoint")
        }
    }

    func testUndecodableBodiesAreBadRequests() async throws {
        try await ServerTestSupport.withServer { server in
            let session = try ServerTestSupport.session(server)
            // The Content-Type as a header, so that one that is not a media type can be sent too.
            func post(_ body: String, _ contentType: String) async throws -> DataResponse {
                try await session.result(
                    for: SessionRequest(
                        .post, "echo", headers: [.contentType: contentType],
                        body: .bytes(Array(body.utf8), contentType: nil))
                ).get()
            }
            Self.assertProblem(try await post(#"{"a": [1, 2"#, "application/json"), 400, containing: "truncatedInput")
            Self.assertProblem(try await post("{'a': 1}", "application/json"), 400, containing: "syntaxError")
            Self.assertProblem(try await post("<a><b></a>", "application/xml"), 400, containing: "the request body")
            Self.assertProblem(
                try await post(
                    "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhalf", "multipart/form-data; boundary=x"),
                400, containing: "truncatedInput")
            Self.assertProblem(try await post("a=1", "multipart/form-data"), 400, containing: "boundary")
            Self.assertProblem(try await post("{}", "not a media type"), 400, containing: "the request body")
            Self.assertProblem(
                try await post(String(repeating: "[", count: 5000), "application/json"), 413, containing: "maxDepth")
            Self.assertProblem(
                try await post("<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>", "application/xml"),
                400, containing: "the request body")
            let query = try await session.fetch("echo?a[=1")
            XCTAssertTrue([200, 400].contains(query.response.status.code))
            // Still serving.
            let still = try await session.fetch("json")
            XCTAssertEqual(try ServerTestSupport.json(still), FixtureDocument.value)
        }
    }

    func testOversizedBodiesAreTooLarge() async throws {
        var configuration = FixtureServerConfiguration()
        configuration.limits.maxBodyBytes = 4096
        try await ServerTestSupport.withServer(configuration) { server in
            let session = try ServerTestSupport.session(server)
            let big = try await session.result(
                for: SessionRequest(
                    .post, "echo", body: .bytes([UInt8](repeating: 0x61, count: 100_000), contentType: .plainText))
            ).get()
            Self.assertProblem(big, 413, containing: "maxBodyBytes")
            let fits = try await session.result(
                for: SessionRequest(
                    .post, "echo", body: .bytes([UInt8](repeating: 0x61, count: 4096), contentType: .plainText))
            ).get()
            XCTAssertEqual(try ServerTestSupport.json(fits)["body"], .string(String(repeating: "a", count: 4096)))
            // Inside a batch a generated body must fit the limit too.
            var batch = MultipartFormData(subtype: .mixed)
            try batch.append(
                MultipartPart(
                    mediaType: try MediaType(parsing: "application/http"),
                    body: .bytes(Array("GET /bytes/5000 HTTP/1.1\r\n\r\n".utf8))))
            let answer = try await session.result(for: SessionRequest(.post, "batch", body: .multipart(batch))).get()
            let parts = try XCTUnwrap(try ServerTestSupport.json(answer).multipartParts)
            XCTAssertEqual((parts.first?.value.httpMessage)?.status, 413)
        }
    }

    func testHostileBatchesStayWithinLimitsAndOtherPartsSurvive() async throws {
        var configuration = FixtureServerConfiguration()
        configuration.limits.maxParts = 3
        try await ServerTestSupport.withServer(configuration) { server in
            let session = try ServerTestSupport.session(server)
            var many = MultipartFormData(subtype: .mixed)
            for _ in 0..<4 {
                try many.append(
                    MultipartPart(
                        mediaType: try MediaType(parsing: "application/http"),
                        body: .bytes(Array("GET /json HTTP/1.1\r\n\r\n".utf8))))
            }
            Self.assertProblem(
                try await session.result(for: SessionRequest(.post, "batch", body: .multipart(many))).get(), 413,
                containing: "maxParts")

            // A smuggled header (bare CR) and a body shorter than its Content-Length spoil only
            // their own parts.
            var hostile = MultipartFormData(subtype: .mixed)
            for message in [
                "GET /json HTTP/1.1\r\nX-A: 1\rX-B: 2\r\n\r\n",
                "POST /echo HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{}",
                "GET /json HTTP/1.1\r\n\r\n",
            ] {
                try hostile.append(
                    MultipartPart(
                        mediaType: try MediaType(parsing: "application/http"), body: .bytes(Array(message.utf8))))
            }
            let answer = try await session.result(for: SessionRequest(.post, "batch", body: .multipart(hostile))).get()
            let parts = try XCTUnwrap(try ServerTestSupport.json(answer).multipartParts)
            let statuses = parts.map { ($0.value.httpMessage)?.status }
            XCTAssertEqual(statuses, [400, 400, 200])
        }
    }

    func testAPortInUseIsReportedAsSuch() async throws {
        try await ServerTestSupport.withServer { first in
            do {
                let second = try await FixtureServer.start(FixtureServerConfiguration(port: first.port))
                await second.stop()
                XCTFail("a second server started on port \(first.port)")
            } catch let error as FixtureServerError {
                XCTAssertEqual(error, .addressInUse(host: "127.0.0.1", port: first.port))
                XCTAssertEqual(error.description, "cannot listen on 127.0.0.1:\(first.port): address already in use")
            }
        }
        do {
            _ = try await FixtureServer.start(FixtureServerConfiguration(port: 70000))
            XCTFail("port 70000 accepted")
        } catch let error as FixtureServerError {
            guard case .invalidConfiguration = error else { return XCTFail("\(error)") }
        }
    }
}
