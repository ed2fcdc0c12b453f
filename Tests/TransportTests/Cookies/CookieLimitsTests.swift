// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Hostile cookie volumes end in a bounded result. libcurl (since 7.84) keeps at most 50
/// cookies of one response, ignores a `Set-Cookie` line over 5 000 bytes, and sends at most 150
/// cookies (8 190 bytes) with one request; the store itself has no cap.
@Suite(.hangGuard)
struct CookieLimitsTests {
    let session: Session

    init() throws {
        session = try SessionSupport.session(try TestServers.shared().fast)
    }

    @Test func fiveThousandSetCookieFieldsKeepABoundedNumber() async throws {
        let response = try await session.get("set-cookies", parameters: ["count": "5000"])
        #expect(response.value?["sent"] == 5_000)
        let kept = session.cookieStore.cookies().count
        #expect(kept > 0 && kept <= 50, "\(kept) cookies kept")
    }

    /// 10 000 `Set-Cookie` fields pass libcurl's 300 KB bound on a response head: the request
    /// fails saying so, and keeps no cookie.
    @Test func tenThousandSetCookieFieldsOverflowTheHead() async throws {
        let response = await session.result(for: SessionRequest(.get, "set-cookies?count=10000"))
        #expect(response.failure?.code == .networkFailure)
        #expect(response.failure?.message.contains("Too large response headers") == true)
        #expect(session.cookieStore.cookies().count <= 50)
    }

    /// A 100 KB cookie is dropped; the response and its other cookies are not.
    @Test func aCookieOf100KBIsIgnored() async throws {
        let response = try await session.get("set-cookies", parameters: ["count": "2", "bytes": "100000"])
        #expect(response.response.status.code == 200)
        #expect(session.cookieStore.cookies().map(\.name).sorted() == ["c0", "c1"])
    }

    /// 10 000 cookies set from Swift are all kept (and listed, and written to a file and read
    /// back), and a request carries a bounded number of them.
    @Test func tenThousandCookiesAreKeptAndABoundedNumberSent() async throws {
        let path = SessionSupport.temporaryPath("many.txt")
        defer { unlink(path) }
        let store = CookieStore(.file(path))
        try store.setCookies((0..<10_000).map { Cookie(name: "n\($0)", value: "\($0)", domain: "127.0.0.1") })
        #expect(store.cookies().count == 10_000)
        #expect(CookieStore(.file(path)).cookies().count == 10_000)

        let sharing = try SessionSupport.session(try TestServers.shared().fast) { $0.cookieStore = store }
        let echoed = try await sharing.get("echo-headers")
        let header = try #require(echoed.value?["headers"]?["cookie"]?.stringValue)
        let sent = header.split(separator: ";").count
        #expect(sent > 0 && sent <= 150, "\(sent) cookies sent")
        #expect(header.utf8.count <= 8190)
    }
}
