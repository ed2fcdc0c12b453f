// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --cert/--key/--cert-type/--pass` against the mutual-TLS test server, which
/// requires a client certificate from the test CA A.
@Suite(.hangGuard)
struct RequestClientCertificateTests {
    let servers: TestServers
    let url: String
    let certificates: TestServers.Certificates

    init() throws {
        servers = try TestServers.shared()
        certificates = servers.certificates
        url = servers.fastMutualTLS.appendingPathComponent("client-certificate").absoluteString
    }

    func run(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(
            ["request", "GET", url, "--cacert", certificates.caA.path, "--color", "never"] + arguments)
    }

    @Test func aCertificateAndKeyArePresented() throws {
        let pem = try run(["--cert", certificates.client.path, "--key", certificates.clientKey.path])
        #expect(pem.status == 0, "\(pem.errorOutput)")
        #expect(pem.output.contains("client.satchel.test"))
        let bundle = try run([
            "--cert", certificates.clientBundle.path, "--cert-type", "P12", "--pass", servers.clientKeyPassphrase,
        ])
        #expect(bundle.status == 0, "\(bundle.errorOutput)")
    }

    @Test func refusalsAreClearErrors() throws {
        let none = try run([])
        #expect(none.status != 0)
        #expect(none.errorOutput.contains("the server wants a client certificate it trusts"), "\(none.errorOutput)")
        let wrong = try run([
            "--cert", certificates.client.path, "--key", certificates.clientKeyEncrypted.path, "--pass", "nope",
        ])
        #expect(wrong.status != 0)
        #expect(wrong.errorOutput.contains("key"), "\(wrong.errorOutput)")
        #expect(!wrong.errorOutput.contains("nope"))
        #expect(try run(["--key", certificates.clientKey.path]).status == 64)
        #expect(try run(["--cert", certificates.client.path, "--cert-type", "JKS"]).status == 64)
    }
}
