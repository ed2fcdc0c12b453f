import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// The session's cookie store read and changed from Swift, checked against what httpbin's
/// `/cookies` receives.
@Suite(.timeLimit(.minutes(1)))
struct CookieStoreTests {
    let httpbin: URL
    let session: Session

    init() throws {
        httpbin = try TestServers.shared().httpbin
        session = try SessionSupport.session(httpbin)
    }

    func sent() async throws -> Value? {
        try await session.get("cookies").value?["cookies"]
    }

    @Test func cookiesSetByResponsesAreListedWithTheirAttributes() async throws {
        _ = try await session.get("cookies/set?flavour=oat")
        _ = try await session.get("response-headers", parameters: ["Set-Cookie": "kept=1; Path=/cookies; HttpOnly"])
        let cookies = await session.cookies()
        let flavour = try #require(cookies.first { $0.name == "flavour" })
        #expect(flavour.value == "oat")
        #expect(flavour.domain == "127.0.0.1")
        #expect(flavour.path == "/")
        #expect(flavour.expires == nil)
        let kept = try #require(cookies.first { $0.name == "kept" })
        #expect(kept.isHTTPOnly)
        #expect(kept.path == "/cookies")
        // For a URL: the path decides.
        #expect(try await session.cookies(for: "cookies").map(\.name).sorted() == ["flavour", "kept"])
        #expect(try await session.cookies(for: "get").map(\.name) == ["flavour"])
    }

    @Test func aCookieSetFromSwiftIsSentAndCanBeRemoved() async throws {
        try await session.setCookie(Cookie(name: "a", value: "1", domain: "127.0.0.1"))
        try await session.setCookie(Cookie(name: "b", value: "2", domain: "127.0.0.1"))
        #expect(try await sent() == ["a": "1", "b": "2"])
        try await session.setCookie(Cookie(name: "a", value: "3", domain: "127.0.0.1"))  // replaces
        #expect(try await sent() == ["a": "3", "b": "2"])
        await session.removeCookies { $0.name == "a" }
        #expect(try await sent() == ["b": "2"])
        await session.removeAllCookies()
        #expect(try await sent() == [:])
        #expect(await session.cookies().isEmpty)
    }

    /// (A `Secure` cookie goes to 127.0.0.1 over plain HTTP: libcurl, as browsers, counts
    /// loopback as a secure context; `cookies(for:)` says the same.)
    @Test func cookiesOfAnotherDomainOrExpiredOnesAreNotSent() async throws {
        try await session.setCookie(Cookie(name: "elsewhere", value: "1", domain: "example.com"))
        try await session.setCookie(Cookie(name: "old", value: "1", domain: "127.0.0.1", expires: 1_000_000))
        try await session.setCookie(Cookie(name: "secure", value: "1", domain: "127.0.0.1", isSecure: true))
        let forURL = try await session.cookies(for: "cookies").map(\.name)
        let received = try await sent()
        let listed = await session.cookies().map(\.name)
        #expect(forURL == ["secure"], "\(forURL)")
        #expect(received == ["secure": "1"], "\(String(describing: received))")
        #expect(listed.sorted() == ["elsewhere", "secure"], "\(listed)")
        #expect(try await session.cookies(for: "http://example.com/").map(\.name) == ["elsewhere"])
    }

    @Test(arguments: [
        Cookie(name: "", value: "1", domain: "127.0.0.1"), Cookie(name: "a", value: "1", domain: ""),
        Cookie(name: "a;b", value: "1", domain: "127.0.0.1"), Cookie(name: "a", value: "1\n2", domain: "127.0.0.1"),
        Cookie(name: "a", value: "1", domain: "127.0.0.1", path: "relative"),
    ])
    func aMalformedCookieIsRefused(cookie: Cookie) async throws {
        await #expect(throws: SatchelError.self) { try await session.setCookie(cookie) }
        #expect(await session.cookies().isEmpty)
    }

    /// Each session has its own store.
    @Test func sessionsDoNotShareCookies() async throws {
        try await session.setCookie(Cookie(name: "mine", value: "1", domain: "127.0.0.1"))
        let other = try SessionSupport.session(httpbin)
        #expect(await other.cookies().isEmpty)
    }
}
