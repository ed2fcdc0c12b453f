// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// `satchel request --auth` with `--auth-type`, against httpbin's authentication endpoints.
@Suite(.hangGuard)
struct RequestAuthTests {
    let httpbin: String

    init() throws {
        httpbin = try TestServers.shared().httpbin.absoluteString.trimmingCharacters(in: ["/"])
    }

    @Test(arguments: [
        ("basic-auth/ann/s3cret", "basic"), ("digest-auth/auth/ann/s3cret/MD5", "digest"),
        ("digest-auth/auth/ann/s3cret/SHA-256", "any"), ("hidden-basic-auth/ann/s3cret", "basic"),
    ])
    func theChallengeIsAnswered(path: String, type: String) throws {
        let result = try CommandRunner.run([
            "request", "GET", "\(httpbin)/\(path)", "--auth", "ann:s3cret", "--auth-type", type, "--color", "never",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("\"authenticated\": true"))
    }

    @Test func aBearerTokenIsSentAsIs() throws {
        let result = try CommandRunner.run([
            "request", "GET", "\(httpbin)/bearer", "--auth", "t0ken", "--auth-type", "bearer", "--color", "never",
        ])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("\"token\": \"t0ken\""))
    }

    @Test func aWrongPasswordExits22AndNeverShowsIt() throws {
        let result = try CommandRunner.run([
            "request", "GET", "\(httpbin)/digest-auth/auth/ann/s3cret/MD5", "--auth", "ann:wr0ng", "--auth-type",
            "digest",
        ])
        #expect(result.status == 22)
        #expect(result.errorOutput.contains("401"))
        #expect(!result.errorOutput.contains("wr0ng"))
    }

    @Test func aMissingPasswordOffATerminalIsAUsageError() throws {
        let result = try CommandRunner.run(["request", "GET", "\(httpbin)/basic-auth/ann/s3cret", "--auth", "ann"])
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("--auth needs user:password"))
    }
}
