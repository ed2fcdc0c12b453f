// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// An easy handle keeps its options from one attempt without a body to the next with the same
/// shared options (``Transfer/SharedOptions``), and is reset otherwise: requests one after
/// another on one session — so on the same handle — never inherit what the previous one set.
@Suite(.hangGuard)
struct TransferHandleReuseTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    @Test func requestsOnAReusedHandleSendOnlyWhatTheyAskFor() async throws {
        let session = try SessionSupport.session(servers.httpbin)
        defer { session.invalidateAndCancel() }
        func echoed(_ request: SessionRequest) async throws -> Value {
            try #require(try await session.send(request).value)
        }
        let libcurlEncodings = try await echoed(SessionRequest(.get, "anything"))["headers"]?["Accept-Encoding"]
        #expect(libcurlEncodings?.stringValue?.contains("gzip") == true)

        var custom = SessionRequest(.get, "anything", headers: [HTTPField.Name("X-One")!: "1"])
        #expect(try await echoed(custom)["headers"]?["X-One"]?.stringValue == "1")
        let plain = try await echoed(SessionRequest(.get, "anything"))
        #expect(plain["headers"]?["X-One"] == nil)  // the header list is the request's own
        #expect(plain["headers"]?["Accept-Encoding"] == libcurlEncodings)

        let posted = try await session.upload(.bytes(Array("abc".utf8), contentType: .plainText), to: "anything")
        #expect(posted.value?["method"]?.stringValue == "POST")
        #expect(posted.value?["data"]?.stringValue == "abc")
        let after = try await echoed(SessionRequest(.get, "anything"))
        #expect(after["method"]?.stringValue == "GET")  // not an upload any more
        #expect(after["data"]?.stringValue == "")
        #expect(after["headers"]?["Content-Length"] == nil && after["headers"]?["Content-Type"] == nil)

        let head = try await session.send(SessionRequest(.head, "anything"))
        #expect(head.response.status.code == 200 && head.body.isEmpty)
        #expect(try await echoed(SessionRequest(.get, "anything"))["method"]?.stringValue == "GET")

        custom = SessionRequest(.get, "anything", headers: [.acceptEncoding: "identity"])
        #expect(try await echoed(custom)["headers"]?["Accept-Encoding"]?.stringValue == "identity")
        #expect(try await echoed(SessionRequest(.get, "gzip"))["gzipped"]?.boolValue == true)  // decoding back on
    }

    @Test func aHandleWhoseTransferFailedOrPausedIsResetBeforeItCarriesAnother() async throws {
        let session = try SessionSupport.session(servers.httpbin) {
            $0.timeouts = TransferTimeouts(request: .milliseconds(300))
        }
        defer { session.invalidateAndCancel() }
        let timedOut = await session.result(for: SessionRequest(.get, "delay/3"))
        #expect(timedOut.error?.code == .timedOut)
        #expect(try await session.get("get").response.status.code == 200)
        // A slow consumer of 4 MB, so the transfer pauses (past about 1 MiB unread) and resumes.
        let fast = try SessionSupport.session(servers.fast)
        defer { fast.invalidateAndCancel() }
        var streamed: [UInt8] = []
        for try await chunk in try await fast.bytes(for: SessionRequest(.get, "large/4000000")) {
            streamed += chunk
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(streamed == SessionSupport.largeBytes(0..<4_000_000))
        let after = try await fast.result(for: SessionRequest(.get, "large/1000")).get()  // octet-stream: not decoded
        #expect(after.response.status.code == 200)
        #expect(after.body == SessionSupport.largeBytes(0..<1000))
    }

    /// Requests one after another reuse the session's easy handles (and with them libcurl's
    /// receive buffer) instead of making one per request.
    @Test func requestsOneAfterAnotherReuseTheirHandles() async throws {
        let session = try SessionSupport.session(servers.fast)
        defer { session.invalidateAndCancel() }
        for index in 0..<10 {
            #expect(try await session.get("echo-headers?i=\(index)").response.status.code == 200)
        }
        #expect(session.engine.handlesMade.load(ordering: .relaxed) <= 2)
    }
}
