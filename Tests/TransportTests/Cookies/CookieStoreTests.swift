// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// The session's cookie store read and changed from Swift, checked against what httpbin's
/// `/cookies` receives.
@Suite(.hangGuard)
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
        let cookies = session.cookieStore.cookies()
        let flavour = try #require(cookies.first { $0.name == "flavour" })
        #expect(flavour.value == "oat")
        #expect(flavour.domain == "127.0.0.1")
        #expect(flavour.path == "/")
        #expect(flavour.expires == nil)
        let kept = try #require(cookies.first { $0.name == "kept" })
        #expect(kept.isHTTPOnly)
        #expect(kept.path == "/cookies")
        // For a URL: the path decides.
        #expect(try session.cookieStore.cookies(for: "\(httpbin)/cookies").map(\.name).sorted() == ["flavour", "kept"])
        #expect(try session.cookieStore.cookies(for: "\(httpbin)/get").map(\.name) == ["flavour"])
    }

    @Test func aCookieSetFromSwiftIsSentAndCanBeRemoved() async throws {
        try session.cookieStore.setCookie(Cookie(name: "a", value: "1", domain: "127.0.0.1"))
        try session.cookieStore.setCookie(Cookie(name: "b", value: "2", domain: "127.0.0.1"))
        #expect(try await sent() == ["a": "1", "b": "2"])
        try session.cookieStore.setCookie(Cookie(name: "a", value: "3", domain: "127.0.0.1"))  // replaces
        #expect(try await sent() == ["a": "3", "b": "2"])
        try session.cookieStore.removeCookies { $0.name == "a" }
        #expect(try await sent() == ["b": "2"])
        try session.cookieStore.removeAllCookies()
        #expect(try await sent() == [:])
        #expect(session.cookieStore.cookies().isEmpty)
    }

    /// (A `Secure` cookie goes to 127.0.0.1 over plain HTTP: libcurl, as browsers, counts
    /// loopback as a secure context; `cookies(for:)` says the same.)
    @Test func cookiesOfAnotherDomainOrExpiredOnesAreNotSent() async throws {
        try session.cookieStore.setCookie(Cookie(name: "elsewhere", value: "1", domain: "example.com"))
        try session.cookieStore.setCookie(Cookie(name: "old", value: "1", domain: "127.0.0.1", expires: 1_000_000))
        try session.cookieStore.setCookie(Cookie(name: "secure", value: "1", domain: "127.0.0.1", isSecure: true))
        let forURL = try session.cookieStore.cookies(for: "\(httpbin)/cookies").map(\.name)
        let received = try await sent()
        let listed = session.cookieStore.cookies().map(\.name)
        #expect(forURL == ["secure"], "\(forURL)")
        #expect(received == ["secure": "1"], "\(String(describing: received))")
        #expect(listed.sorted() == ["elsewhere", "secure"], "\(listed)")
        #expect(try session.cookieStore.cookies(for: "http://example.com/").map(\.name) == ["elsewhere"])
    }

    @Test(arguments: [
        Cookie(name: "", value: "1", domain: "127.0.0.1"), Cookie(name: "a", value: "1", domain: ""),
        Cookie(name: "a;b", value: "1", domain: "127.0.0.1"), Cookie(name: "a", value: "1\n2", domain: "127.0.0.1"),
        Cookie(name: "a", value: "1", domain: "127.0.0.1", path: "relative"),
    ])
    func aMalformedCookieIsRefused(cookie: Cookie) async throws {
        #expect(throws: SatchelError.self) { try session.cookieStore.setCookie(cookie) }
        #expect(session.cookieStore.cookies().isEmpty)
    }

    /// A response cannot set a cookie for another domain, nor for a public suffix; one for its
    /// own host is kept.
    @Test func aCookieForAnotherDomainIsNotAccepted() async throws {
        for field in ["evil=1; Domain=example.com", "tld=1; Domain=com", "own=1; Domain=127.0.0.1"] {
            _ = try await session.get("response-headers", parameters: ["Set-Cookie": .string(field)])
        }
        #expect(session.cookieStore.cookies().map(\.name) == ["own"])
        #expect(try await sent() == ["own": "1"])
    }

    /// `SameSite` is kept as received, beside libcurl's store (which drops it): from responses,
    /// for a cookie with an explicit path and one with the request's directory as its default
    /// path; from Swift; gone with the cookie.
    @Test func sameSiteIsKeptAsReceived() async throws {
        let fast = try SessionSupport.session(try TestServers.shared().fast)
        let store = fast.cookieStore
        _ = try await fast.get("set-cookies", parameters: ["count": "1", "samesite": "lax"])
        _ = try await fast.get("set-cookies/deep/page?count=2&samesite=Strict&nopath=1")
        let cookies = store.cookies()
        #expect(cookies.first { $0.path == "/" }?.sameSite == .lax, "\(cookies)")
        let deep = cookies.filter { $0.path == "/set-cookies/deep/" }
        #expect(deep.count == 2 && deep.allSatisfy { $0.sameSite == .strict }, "\(cookies)")
        // Set again without it: gone.
        _ = try await fast.get("set-cookies", parameters: ["count": "1"])
        #expect(store.cookies().first { $0.path == "/" }?.sameSite == nil)

        try store.setCookie(Cookie(name: "mine", value: "1", domain: "127.0.0.1", sameSite: Cookie.SameSite.none))
        #expect(store.cookies().first { $0.name == "mine" }?.sameSite == Cookie.SameSite.none)
        try store.removeCookies { $0.name == "mine" }
        try store.setCookie(Cookie(name: "mine", value: "2", domain: "127.0.0.1"))
        #expect(store.cookies().first { $0.name == "mine" }?.sameSite == nil)
        #expect(Cookie.SameSite(attribute: "bogus") == nil)
    }

    /// A session given no store has its own.
    @Test func sessionsWithoutAStoreDoNotShareCookies() async throws {
        try session.cookieStore.setCookie(Cookie(name: "mine", value: "1", domain: "127.0.0.1"))
        let other = try SessionSupport.session(httpbin)
        #expect(other.cookieStore !== session.cookieStore)
        #expect(other.cookieStore.cookies().isEmpty)
    }

    /// One store given to two sessions: a cookie a response to one sets goes with the other's
    /// requests, and the store outlives both (a third session finds the cookie).
    @Test func aStoreGivenToTwoSessionsIsShared() async throws {
        let store = CookieStore()
        func sharing() throws -> Session { try SessionSupport.session(httpbin) { $0.cookieStore = store } }
        let first = try sharing()
        let second = try sharing()
        #expect(first.cookieStore === store && second.cookieStore === store)
        _ = try await first.get("cookies/set?from=first")
        #expect(try await second.get("cookies").value?["cookies"] == ["from": "first"])
        try store.setCookie(Cookie(name: "set", value: "here", domain: "127.0.0.1"))
        #expect(try await first.get("cookies").value?["cookies"] == ["from": "first", "set": "here"])
        first.invalidateAndCancel()
        second.invalidateAndCancel()
        #expect(store.cookies().map(\.name).sorted() == ["from", "set"])
        #expect(try await sharing().get("cookies").value?["cookies"] == ["from": "first", "set": "here"])
    }

    /// Two sessions, each on its own transfer thread, set cookies in one store while other
    /// tasks set and read it from Swift: every cookie arrives (the share's locks hold).
    @Test func concurrentSessionsAndCallsKeepEveryCookie() async throws {
        let store = CookieStore()
        let sessions = try (0..<2).map { _ in try SessionSupport.session(httpbin) { $0.cookieStore = store } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<40 {
                group.addTask { _ = try await sessions[i % 2].get("response-headers?Set-Cookie=c\(i)%3D\(i)") }
                group.addTask {
                    try store.setCookie(Cookie(name: "s\(i)", value: "\(i)", domain: "127.0.0.1"))
                    _ = store.cookies()
                }
            }
            try await group.waitForAll()
        }
        let names = Set(store.cookies().map(\.name))
        #expect(names == Set((0..<40).flatMap { ["c\($0)", "s\($0)"] }))
    }

    /// Over plain HTTP to a host that is not a secure context (127.0.0.2: loopback, but not one
    /// of the names libcurl trusts), a `Secure` cookie stays home, set by a response or from
    /// Swift, and `cookies(for:)` agrees; the plain cookie goes.
    @Test func aSecureCookieIsNotSentOverPlainHTTP() async throws {
        let plain = try TestServers.shared().fastPlainHost
        let session = try SessionSupport.session(plain)
        _ = try await session.get("set-cookies", parameters: ["count": "1"])  // c0, not Secure
        try session.cookieStore.setCookie(Cookie(name: "secret", value: "1", domain: "127.0.0.2", isSecure: true))
        #expect(session.cookieStore.cookies().map(\.name).sorted() == ["c0", "secret"])
        let echoed = try await session.get("echo-headers")
        #expect(echoed.value?["headers"]?["cookie"] == "c0=0")
        let url = plain.appendingPathComponent("echo-headers").absoluteString
        #expect(try session.cookieStore.cookies(for: url).map(\.name) == ["c0"])
        // A response over plain HTTP cannot set a Secure cookie at all (RFC 6265bis §5.6).
        _ = try await session.get("set-cookies?count=2&secure=1")
        #expect(session.cookieStore.cookies().map(\.name).sorted() == ["c0", "secret"])
    }
}
