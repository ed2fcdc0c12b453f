// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --proxy`, `--proxy-user`, `--noproxy`, and the environment's proxy
/// variables as curl reads them, through a real proxy (pproxy) that refuses requests without
/// its user: a 407 shows a request went through it.
@Suite(.hangGuard)
struct RequestProxyTests {
    let servers: TestServers
    let proxies: ProxyProcess
    let fast: String
    let user = "\(ProxyProcess.user):\(ProxyProcess.password)"

    init() throws {
        servers = try TestServers.shared()
        proxies = try ProxyProcess()
        fast = servers.fast.absoluteString.trimmingCharacters(in: ["/"])
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandRunner.Result {
        try CommandRunner.run(["request", "GET"] + arguments + ["--color", "never"], environment: environment)
    }

    /// `http://ann:…@127.0.0.1:PORT` for the proxy URL `url`.
    func withUser(_ url: String) -> String {
        url.replacingOccurrences(of: "://", with: "://\(user)@")
    }

    @Test func anExplicitProxyWithItsUser() throws {
        let through = try run(["\(fast)/echo-headers", "--proxy", proxies.http, "--proxy-user", user])
        #expect(through.status == 0, "\(through.errorOutput)")
        #expect(through.output.contains("\"path\": \"/echo-headers\""))
        let socks = try run(["\(fast)/echo-headers", "--proxy", proxies.socks, "--proxy-user", user])
        #expect(socks.status == 0, "\(socks.errorOutput)")
        let refused = try run(["\(fast)/echo-headers", "--proxy", proxies.http])
        #expect(refused.status == 22)
        #expect(refused.errorOutput.contains("407"), "\(refused.errorOutput)")
        let bypassed = try run(["\(fast)/echo-headers", "--proxy", proxies.http, "--noproxy", "example.com,127.0.0.1"])
        #expect(bypassed.status == 0, "\(bypassed.errorOutput)")
    }

    /// http_proxy (lower case only: HTTP_PROXY is ignored, as curl does), https_proxy for TLS
    /// origins through a CONNECT tunnel, all_proxy for any scheme, no_proxy to bypass, and
    /// `--proxy ""` to ignore them all.
    @Test func theEnvironmentIsReadAsCurlReadsIt() throws {
        let url = "\(fast)/echo-headers"
        #expect(try run([url], environment: ["http_proxy": proxies.http]).status == 22)
        #expect(try run([url], environment: ["http_proxy": withUser(proxies.http)]).status == 0)
        #expect(try run([url], environment: ["HTTP_PROXY": proxies.http]).status == 0)
        #expect(try run([url], environment: ["http_proxy": proxies.http, "no_proxy": "127.0.0.1"]).status == 0)
        #expect(try run([url], environment: ["http_proxy": proxies.http, "NO_PROXY": "*"]).status == 0)
        #expect(try run([url, "--proxy", ""], environment: ["http_proxy": proxies.http]).status == 0)
        #expect(try run([url], environment: ["ALL_PROXY": proxies.socks]).status != 0)
        #expect(try run([url], environment: ["all_proxy": withUser(proxies.socks)]).status == 0)

        let tls = servers.httpbinTLS.appendingPathComponent("get").absoluteString
        let ca = servers.certificates.caA.path
        let refused = try run([tls, "--cacert", ca], environment: ["https_proxy": proxies.http])
        #expect(refused.status == 22)
        #expect(refused.errorOutput.contains("the proxy refused the tunnel with status 407"), "\(refused.errorOutput)")
        let tunnelled = try run([tls, "--cacert", ca], environment: ["HTTPS_PROXY": withUser(proxies.http)])
        #expect(tunnelled.status == 0, "\(tunnelled.errorOutput)")
    }

    @Test(arguments: [
        ["--noproxy", "example.com"], ["--proxy-user", "a:b"], ["--proxy", "ftp://proxy:21"],
        ["--proxy", "http://user:pw@proxy:1"],
    ])
    func misuseIsAUsageError(arguments: [String]) throws {
        let result = try run(["\(fast)/echo-headers"] + arguments)
        #expect(result.status == 64, "\(result.errorOutput)")
    }
}
