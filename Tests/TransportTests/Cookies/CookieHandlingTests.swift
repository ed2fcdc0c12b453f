// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// The session's cookies against httpbin's `/cookies/set` and `/cookies`, and per request
/// `handlesCookies` (AFNetworking's `HTTPShouldHandleCookies`).
@Suite(.hangGuard)
struct CookieHandlingTests {
    let session: Session

    init() throws {
        session = try SessionSupport.session(try TestServers.shared().httpbin)
    }

    func cookies(handling: Bool? = nil) async throws -> Value? {
        var request = SessionRequest(.get, "cookies")
        request.handlesCookies = handling
        return try await session.send(request).value?["cookies"]
    }

    @Test func aCookieSetByAResponseIsSentBack() async throws {
        // /cookies/set answers 302 to /cookies: the cookie is kept and sent on the redirect.
        let set = try await session.get("cookies/set?flavour=oat")
        #expect(set.value?["cookies"] == ["flavour": "oat"])
        #expect(try await cookies() == ["flavour": "oat"])
    }

    @Test func aRequestThatDoesNotHandleCookiesNeitherSendsNorKeepsThem() async throws {
        _ = try await session.get("cookies/set?kept=1")
        #expect(try await cookies(handling: false) == [:])
        var setting = SessionRequest(.get, "cookies/set?dropped=1")
        setting.handlesCookies = false
        _ = try await session.send(setting)
        #expect(try await cookies() == ["kept": "1"])
    }

    @Test func aSessionThatDoesNotHandleCookiesCanStillLetARequestDoIt() async throws {
        let quiet = try SessionSupport.session(try TestServers.shared().httpbin) { $0.handlesCookies = false }
        _ = try await quiet.get("cookies/set?a=1")
        #expect(try await quiet.get("cookies").value?["cookies"] == [:])
        var handling = SessionRequest(.get, "cookies/set?b=2")
        handling.handlesCookies = true
        #expect(try await quiet.send(handling).value?["cookies"] == ["b": "2"])
    }
}
