// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// Requests through real proxies (pproxy: HTTP forwarding and CONNECT, SOCKS5), which require a
/// user: plain and TLS origins, refusals, the bypass list, a proxy that dies mid-download, and
/// the proxy URL's checks.
@Suite(.hangGuard)
struct ProxyTests {
    let servers: TestServers
    let proxies: ProxyProcess
    let credential = Credential(user: ProxyProcess.user, password: ProxyProcess.password)

    init() throws {
        servers = try TestServers.shared()
        proxies = try ProxyProcess()
    }

    func session(_ base: URL, proxy: ProxyPolicy, trustingTestCA: Bool = false) throws -> Session {
        let authority = servers.certificates.caA.path
        return try SessionSupport.session(base) {
            $0.proxy = proxy
            if trustingTestCA { $0.securityPolicy.certificateAuthoritiesPath = authority }
        }
    }

    /// A plain origin through each proxy, and a TLS origin through each (a CONNECT tunnel for
    /// the HTTP proxy), with the proxy's credential; the origin's trust and pins are the
    /// origin's, the proxy needs none.
    @Test(arguments: [false, true])
    func originsAreReachedThroughEachProxy(socks: Bool) async throws {
        let proxy = try Proxy(socks ? proxies.socks : proxies.http, credential: credential)
        let plain = try session(servers.fast, proxy: .through(proxy))
        let echoed = try await plain.get("echo-headers")
        #expect(echoed.value?["path"] == "/echo-headers")
        // The proxy's credential is not the origin's: nothing of it reaches the origin.
        #expect(echoed.value?["headers"]?["proxy-authorization"] == nil)
        #expect(echoed.value?["headers"]?["authorization"] == nil)

        let tls = try session(servers.httpbinTLS, proxy: .through(proxy), trustingTestCA: true)
        let response = try await tls.get("get")
        #expect(response.response.status.code == 200)
        #expect(response.value?["url"]?.stringValue?.hasPrefix("https://") == true)
    }

    /// A public-key pin through each proxy is checked against the origin at the tunnel's end:
    /// the origin's key passes, another key fails the TLS handshake with the origin.
    @Test(arguments: [false, true])
    func pinsApplyToTheOriginThroughAProxy(socks: Bool) async throws {
        let proxy = try Proxy(socks ? proxies.socks : proxies.http, credential: credential)
        for (pin, passes) in [(servers.pins.good, true), (servers.pins.caB, false)] {
            let session = try SessionSupport.session(servers.httpbinTLS) {
                $0.proxy = .through(proxy)
                $0.securityPolicy = .publicKeys([pin])
                $0.securityPolicy.certificateAuthoritiesPath = servers.certificates.caA.path
            }
            let response = await session.result(for: SessionRequest(.get, "get"))
            if passes {
                #expect(response.response?.response.status.code == 200, "\(String(describing: response.error))")
            } else {
                #expect(response.error?.code == .tlsFailure, "\(String(describing: response.error))")
            }
        }
    }

    /// An https:// proxy: TLS to the proxy, trusted by the proxy's own CA file (the origin's
    /// trust is not the proxy's: without it, the proxy's certificate is refused).
    @Test func anHTTPSProxyIsTrustedByItsOwnCertificateAuthorities() async throws {
        let ca = servers.certificates.caA.path
        let trusted = try Proxy(proxies.https, credential: credential, certificateAuthoritiesPath: ca)
        #expect(
            try await session(servers.fast, proxy: .through(trusted)).get("echo-headers").response.status.code == 200)
        let tls = try session(servers.httpbinTLS, proxy: .through(trusted), trustingTestCA: true)
        #expect(try await tls.get("get").response.status.code == 200)

        let untrusted = try Proxy(proxies.https, credential: credential)
        let refused = await (try session(servers.fast, proxy: .through(untrusted), trustingTestCA: true))
            .result(for: SessionRequest(.get, "echo-headers"))
        #expect(refused.failure?.code == .tlsFailure, "\(String(describing: refused.failure))")
    }

    /// The HTTP proxy without the credential: a plain request gets the proxy's 407 as its
    /// response, with the proxy's body; a CONNECT refused with 407 is an error that says so,
    /// with the status kept as the response.
    @Test func aProxyThatRefusesIsTheResponse() async throws {
        let proxy = try Proxy(proxies.http)
        let plain = try session(servers.fast, proxy: .through(proxy))
        let refused = try await plain.result(for: SessionRequest(.get, "echo-headers")).get()
        #expect(refused.failure?.code == .unacceptableStatusCode)
        #expect(refused.response.status.code == 407)

        let tls = try session(servers.httpbinTLS, proxy: .through(proxy), trustingTestCA: true)
        let tunnel = try await tls.result(for: SessionRequest(.get, "get")).get()
        #expect(tunnel.failure?.code == .unacceptableStatusCode)
        #expect(tunnel.failure?.message.contains("the proxy refused the tunnel with status 407") == true)
        #expect(tunnel.response.status.code == 407)

        let wrong = Credential(user: ProxyProcess.user, password: "wrong")
        let socks = try session(servers.fast, proxy: .through(try Proxy(proxies.socks, credential: wrong)))
        let rejected = await socks.result(for: SessionRequest(.get, "echo-headers"))
        #expect(rejected.failure != nil && rejected.response == nil)
        #expect(rejected.failure?.description.contains("wrong") == false)
    }

    /// A host on the bypass list goes direct: the refusing proxy never sees it.
    @Test func theBypassListGoesDirect() async throws {
        let proxy = try Proxy(proxies.http, bypass: ["127.0.0.1"])
        let bypassing = try session(servers.fast, proxy: .through(proxy))
        #expect(try await bypassing.get("echo-headers").response.status.code == 200)
        let other = try Proxy(proxies.http, bypass: ["example.com", ".internal"])
        let through = try session(servers.fast, proxy: .through(other))
        #expect(try await through.result(for: SessionRequest(.get, "echo-headers")).get().response.status.code == 407)
        // .direct ignores any proxy.
        #expect(try await session(servers.fast, proxy: .direct).get("echo-headers").response.status.code == 200)
    }

    /// The proxy killed in the middle of a download: a clear network error, no file, and the
    /// part kept for a resume.
    @Test func aProxyThatDiesMidDownloadLeavesNoFile() async throws {
        let proxy = try Proxy(proxies.http, credential: credential)
        let session = try session(servers.fast, proxy: .through(proxy))
        let destination = SessionSupport.temporaryPath("through-proxy.bin")
        defer { unlink(destination) }
        defer { unlink(destination + ".part") }
        let proxies = self.proxies
        // 64 MiB in 64 KiB slices 5 ms apart: still running when the first MiB is in.
        var request = SessionRequest(.get, "large/\(64 << 20)?slice=65536&pace_ms=5")
        let killed = Mutex(false)
        request.progress = { progress in
            let first =
                progress.downloadedBytes > 1 << 20
                && killed.withLock { done in
                    defer { done = true }
                    return !done
                }
            if first { proxies.kill() }
        }
        let response = await session.downloadResponse(for: request, to: destination)
        #expect(response.error?.code == .networkFailure, "\(String(describing: response.error))")
        #expect(killed.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    @Test(arguments: [
        "ftp://proxy:21", "proxy:8080", "http://", "http://:8080", "http://user:pw@proxy:8080",
    ])
    func aBadProxyURLIsRefused(url: String) {
        #expect(throws: SatchelError.self) { try Proxy(url) }
    }

    @Test func theDescriptionHidesThePassword() throws {
        let proxy = try Proxy("socks5h://gw:1080", credential: credential, bypass: ["localhost"])
        #expect(proxy.description == "Proxy(socks5h://gw:1080 as ann (direct: localhost))")
        #expect(throws: SatchelError.self) { try Proxy("http://gw:1", bypass: ["a b"]) }
    }
}
