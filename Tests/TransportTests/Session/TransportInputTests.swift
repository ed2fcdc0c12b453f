// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// URL resolution, header parsing, policies and hostile input that need no server.
@Suite struct TransportInputTests {
    @Test func baseURLsGetATrailingSlashAndReferencesResolvePerRFC3986() throws {
        #expect(try ResolvedURL.base("http://h.test/api") == "http://h.test/api/")
        #expect(try ResolvedURL.base("http://h.test") == "http://h.test/")
        let base = try ResolvedURL.base("http://h.test/api/v1")
        #expect(try ResolvedURL("users", relativeTo: base).absolute == "http://h.test/api/v1/users")
        #expect(try ResolvedURL("/users", relativeTo: base).absolute == "http://h.test/users")
        #expect(try ResolvedURL("../x?y=1", relativeTo: base).absolute == "http://h.test/api/x?y=1")
        #expect(try ResolvedURL("https://other.test:8443/z", relativeTo: base).origin == "https://other.test:8443")
        #expect(try ResolvedURL("http://H.test/", relativeTo: nil).origin == "http://h.test:80")
    }

    @Test(arguments: ["ftp://h.test/file", "file:///etc/passwd", "http://", "not a url at all\u{0}", ""])
    func nonHTTPURLsAreRejected(url: String) async throws {
        let session = try Session(registry: .standard())
        let response = await session.result(for: SessionRequest(.get, url))
        #expect(response.error?.code == .invalidArgument)
        #expect(response.response == nil)
    }

    /// A URL without a scheme says the scheme is missing and how to write it; another scheme
    /// is named.
    @Test func aMissingOrForeignSchemeIsNamed() async throws {
        #expect {
            try Session(baseURL: "api.example.com/v1", registry: .standard())
        } throws: { error in
            (error as? SatchelError)?.message
                == "api.example.com/v1 has no scheme: an absolute URL starts with http:// or https:// (https://api.example.com/v1)"
        }
        let session = try Session(registry: .standard())
        let foreign = await session.result(for: SessionRequest(.get, "ftp://h.test/file"))
        #expect(foreign.error?.message == "ftp://h.test/file has the scheme ftp: Satchel sends http and https URLs")
    }

    @Test func aBadBaseURLIsRejected() {
        #expect(throws: SatchelError.self) { try Session(baseURL: "gopher://h.test/", registry: .standard()) }
        #expect(throws: SatchelError.self) { try Session(baseURL: "::::", registry: .standard()) }
    }

    @Test func anUnreachablePortIsCannotConnect() async throws {
        let session = try Session(
            baseURL: "http://127.0.0.1:9/",
            configuration: {
                var configuration = SessionConfiguration()
                configuration.retryPolicy = .disabled
                return configuration
            }(), registry: .standard())
        let response = await session.result(for: SessionRequest(.get, "x"))
        #expect(response.error?.code == .cannotConnect)
        #expect(response.error?.underlying is CurlFailure)
    }

    @Test func responseHeadsSkipInterimResponsesAndRejectBadStatusLines() throws {
        var parser = ResponseHeadParser()
        func take(_ line: String) throws -> HTTPResponse? {
            try Array(line.utf8).withUnsafeBytes { try parser.take($0) }
        }
        #expect(try take("HTTP/1.1 100 Continue\r\n") == nil)
        #expect(try take("\r\n") == nil)
        #expect(try take("HTTP/1.1 201 Created\r\n") == nil)
        #expect(try take("Content-Type: application/json\r\n") == nil)
        #expect(try take("bad header line without colon\r\n") == nil)
        let head = try #require(try take("\r\n"))
        #expect(head.status.code == 201)
        #expect(head.headerFields[.contentType] == "application/json")
        #expect(parser.version == "1.1")
        for bad in ["HTTP/1.1 20 OK", "FTP/1.0 200 OK", "HTTP/1.1 abc", "garbage", "HTTP/1.1 099 Low"] {
            var fresh = ResponseHeadParser()
            #expect(throws: SatchelError.self) {
                try Array((bad + "\r\n").utf8).withUnsafeBytes { _ = try fresh.take($0) }
            }
        }
    }

    @Test func hostileHeaderLinesNeverTrapAndAreSanitized() throws {
        var parser = ResponseHeadParser()
        func take(_ bytes: [UInt8]) throws -> HTTPResponse? { try bytes.withUnsafeBytes { try parser.take($0) } }
        _ = try take(Array("HTTP/1.1 200 \u{1}Evil\u{7F}reason\r\n".utf8))
        _ = try take(Array("X-Nul: a".utf8) + [0] + Array("b\r\n".utf8))
        _ = try take([0xFF, 0xFE, 0x3A, 0x20, 0x41, 0x0D, 0x0A])  // invalid UTF-8 name
        _ = try take(Array("X-Long: ".utf8) + [UInt8](repeating: 0x61, count: 100_000) + [0x0D, 0x0A])
        let head = try #require(try take(Array("\r\n".utf8)))
        #expect(head.status.code == 200)
        #expect(head.headerFields[HTTPField.Name("X-Nul")!]?.contains("\u{0}") == false)
        #expect(head.headerFields[HTTPField.Name("X-Long")!]?.count == 100_000)
        #expect(head.headerFields.count == 2)
        for bad in [
            "HTTP/1.1 2000 Big", "HTTP/1.1 -10 Negative", "HTTP/1.1 +99 Plus", "HTTP/1.1", "HTTP/1.1 \u{0}\u{0}\u{0}",
        ] {
            var fresh = ResponseHeadParser()
            #expect(throws: SatchelError.self) {
                try Array((bad + "\r\n").utf8).withUnsafeBytes { _ = try fresh.take($0) }
            }
        }
        var empty = ResponseHeadParser()
        #expect(try Array("\r\n".utf8).withUnsafeBytes { try empty.take($0) } == nil)  // no status line yet
    }

    @Test func retryAfterAcceptsSecondsAndDatesAndBackoffIsAlamofires() {
        func response(_ value: String) -> HTTPResponse {
            HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: value])
        }
        #expect(AttemptPolicy.retryAfter(response("3")) == .seconds(3))
        #expect(AttemptPolicy.retryAfter(response("-1")) == nil)
        #expect(AttemptPolicy.retryAfter(response("soon")) == nil)
        #expect(AttemptPolicy.retryAfter(response("Wed, 21 Oct 2015 07:28:00 GMT")) == .zero)
        let policy = RetryPolicy()
        #expect(policy.backoff(beforeRetry: 0) == .milliseconds(500))
        #expect(policy.backoff(beforeRetry: 1) == .seconds(1))
        #expect(RetryPolicy.disabled.retryLimit == 0)
    }

    @Test func redirectsAndRetriesFollowTheirPolicies() {
        let policy = AttemptPolicy(
            redirect: RedirectPolicy(), retry: RetryPolicy(), retries: 0, method: .post, canResend: true)
        let redirect = HTTPResponse(status: .temporaryRedirect, headerFields: [.location: "/next"])
        guard case .redirect(to: "/next")? = policy.disposition(of: redirect) else {
            Issue.record("no redirect"); return
        }
        #expect(same(policy.disposition(of: HTTPResponse(status: .temporaryRedirect)), nil))  // no Location
        #expect(same(policy.disposition(of: HTTPResponse(status: .serviceUnavailable)), nil))  // POST is not retried
        let get = AttemptPolicy(redirect: .none, retry: RetryPolicy(), retries: 2, method: .get, canResend: true)
        #expect(same(get.disposition(of: redirect), nil))
        #expect(same(get.disposition(of: HTTPResponse(status: .serviceUnavailable)), nil))  // limit reached
        let once = AttemptPolicy(redirect: .none, retry: RetryPolicy(), retries: 0, method: .get, canResend: false)
        #expect(same(once.retry(after: SatchelError(.timedOut, "t")), nil))  // a body that cannot rewind
    }

    /// A stream factory that cannot make a second stream fails the second attempt with its own
    /// error; a body written from an async sequence is sent once.
    @Test func aBodyThatCannotBeMadeAgainIsNotResent() throws {
        let made = Mutex(false)
        let body = RequestBody.stream { () throws(SatchelError) -> any BodyStream in
            guard
                made.withLock({ made in
                    defer { made = true }; return !made
                })
            else {
                throw SatchelError(.invalidArgument, "the stream can be read once")
            }
            return OneShotStream()
        }
        _ = try body.makeStream(attempt: 0)
        #expect(throws: SatchelError.self) { _ = try body.makeStream(attempt: 1) }
        let chunks = RequestBody.chunks(BodyChunks { _ in }, contentType: nil)
        #expect(!chunks.canResend)
    }

    @Test func missingUploadFilesFailBeforeSending() async throws {
        let session = try Session(baseURL: "http://127.0.0.1:9/", registry: .standard())
        let response = await session.result(
            for: SessionRequest(.put, "x", body: .file(path: "/nonexistent/file", contentType: nil)))
        #expect(response.error?.code == .io)
    }
}

/// Whether two dispositions are the same.
func same(_ lhs: Session.Disposition?, _ rhs: Session.Disposition?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil), (.final?, .final?): true
    case let (.redirect(a)?, .redirect(b)?): a == b
    case let (.retry(a)?, .retry(b)?): a == b
    default: false
    }
}

/// A stream that can be read once.
final class OneShotStream: BodyStream {
    var length: Int64? { 0 }
    var isRewindable: Bool { false }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { 0 }
    func rewind() throws { throw SatchelError(.invalidArgument, "cannot rewind") }
}
