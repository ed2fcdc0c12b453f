// SPDX-License-Identifier: Apache-2.0
import CSatchelOpenSSL
import Foundation
import Satchel
import XCTest

@testable import SatchelServer

/// `--tls`: the generated CA and leaf, trusted through the CA file or the public-key pin.
final class TLSTests: XCTestCase {
    func testSessionTrustsTheServerThroughTheCAFileOrThePin() async throws {
        try await ServerTestSupport.withServer(FixtureServerConfiguration(tls: true)) { server in
            XCTAssertTrue(server.baseURL.hasPrefix("https://127.0.0.1:"))
            let identity = try XCTUnwrap(server.tlsIdentity)
            XCTAssertEqual(identity.serverName, "localhost")
            XCTAssertEqual(
                try String(contentsOfFile: identity.certificateAuthorityPath, encoding: .utf8),
                identity.certificateAuthorityPEM)
            let mode =
                try FileManager.default.attributesOfItem(atPath: identity.certificateAuthorityPath)[.posixPermissions]
                as? Int
            XCTAssertEqual(mode, 0o600)

            let byAuthority = try ServerTestSupport.session(
                server, policy: .certificateAuthorities(path: identity.certificateAuthorityPath))
            let trusted = try await byAuthority.fetch("json")
            XCTAssertEqual(try ServerTestSupport.json(trusted), FixtureDocument.value)
            // The leaf names localhost too (a DNS SAN beside the IP SAN).
            let byName = try await byAuthority.fetch("https://localhost:\(server.port)/json")
            XCTAssertNil(byName.error, "\(String(describing: byName.error))")

            // A pin alone (curl's --pinnedpubkey with -k): the chain is not checked, the key is.
            var pinOnly = SecurityPolicy.publicKeys([identity.publicKeySHA256])
            pinOnly.allowInvalidCertificates = true
            let byPin = try ServerTestSupport.session(server, policy: pinOnly)
            let pinned = try await byPin.fetch("json")
            XCTAssertEqual(try ServerTestSupport.json(pinned), FixtureDocument.value)
            // Transport computes the same pin from the leaf certificate on its own.
            let leaf = try XCTUnwrap(PinnedCertificate.certificates(pem: identity.leafCertificatePEM).first)
            XCTAssertEqual("sha256//" + leaf.publicKeySHA256, identity.publicKeyPin)

            await Self.expectTLSFailure(try ServerTestSupport.session(server))
            var wrongPinPolicy = SecurityPolicy.publicKeys(["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="])
            wrongPinPolicy.allowInvalidCertificates = true
            await Self.expectTLSFailure(try ServerTestSupport.session(server, policy: wrongPinPolicy))
        }
    }

    func testOpenSSLVerifiesTheLeafAgainstTheCA() async throws {
        try await ServerTestSupport.withServer(FixtureServerConfiguration(tls: true)) { server in
            let identity = try XCTUnwrap(server.tlsIdentity)
            let leafPath = FileManager.default.temporaryDirectory.appendingPathComponent(
                "serve-leaf-\(UUID().uuidString).pem"
            ).path
            try identity.leafCertificatePEM.write(toFile: leafPath, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: leafPath) }
            let output = try Self.run(
                "/usr/bin/openssl",
                [
                    "verify", "-CAfile", identity.certificateAuthorityPath, "-purpose", "sslserver", "-x509_strict",
                    "-verify_ip", "127.0.0.1",
                    "-verify_hostname", "localhost", leafPath,
                ])
            XCTAssertEqual(output, "\(leafPath): OK")
        }
    }

    /// OpenSSL's refusal is an error that names the step and the value, not a trap.
    func testAnExtensionOrNameOpenSSLRefusesIsAnErrorNamingIt() throws {
        let key = try FixtureCertificate.Key()
        let now = Date()
        for (subject, extensions, expected) in [
            ([("CN", "x")], [(NID_subject_alt_name, "NOPE:x")], "subjectAltName = NOPE:x"),
            ([("NOT-A-FIELD", "x")], [], "X509_NAME_add_entry_by_txt NOT-A-FIELD"),
        ] as [([(field: String, value: String)], [(nid: Int32, value: String)], String)] {
            XCTAssertThrowsError(
                try FixtureCertificate(
                    subject: subject, key: key, issuer: nil, issuerKey: key, validity: now...now,
                    extensions: extensions)
            ) { error in
                guard case let .tlsSetup(reason) = error as? FixtureServerError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(reason.contains(expected), reason)
                XCTAssertTrue(reason.hasPrefix("OpenSSL: "), reason)
            }
        }
    }

    func testStopRemovesTheCAFile() async throws {
        let server = try await FixtureServer.start(FixtureServerConfiguration(tls: true))
        let path = try XCTUnwrap(server.tlsIdentity?.certificateAuthorityPath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        await server.stop()
        await server.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asserts that a GET of `/json` through `session` fails in the TLS handshake, with no response.
    private static func expectTLSFailure(
        _ session: @autoclosure () throws -> Session, file: StaticString = #filePath, line: UInt = #line
    ) async {
        guard let session = try? session() else { return XCTFail("no session", file: file, line: line) }
        switch await session.result(for: SessionRequest(.get, "json")) {
        case .success(let response):
            XCTFail("the handshake passed: \(response.response.status)", file: file, line: line)
        case .failure(let error):
            XCTAssertEqual(error.code, .tlsFailure, "\(error)", file: file, line: line)
        }
    }
}
