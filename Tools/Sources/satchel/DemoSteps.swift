// SPDX-License-Identifier: Apache-2.0
import Satchel
import SatchelServer

/// The steps of `satchel demo`, each against the embedded fixture server. A step returns a
/// one-line verdict or throws why it did not work.
struct DemoSteps: Sendable {
    /// How many steps there are.
    static let count = 10

    let server: FixtureServer
    let secureServer: FixtureServer
    let reporter: DemoReporter
    let uploadSize: Int
    let showsProgress: Bool

    /// Runs every step in order; returns how many worked.
    func runAll() async -> Int {
        let steps: [(String, @Sendable () async throws -> String)] = [
            ("A form body (AFNetworking's encoding), echoed back", form),
            ("A JSON body with a 64-bit unsigned integer, echoed back", json),
            ("Property lists: the same document as XML and binary", propertyLists),
            ("XML: a document tree and an XPath query", xml),
            ("Images: PNG (libpng) and JPEG (libjpeg) decoded to pixels", images),
            ("A streamed multipart upload of a generated file", multipartUpload),
            ("A batch: multipart/mixed of HTTP requests, answered and decoded part by part", batch),
            ("A download cut halfway, then resumed with Range and If-Range", resumedDownload),
            ("TLS pinned to the server's public key", pinnedTLS),
            ("Server-Sent Events followed as they arrive, reconnecting with Last-Event-ID", serverSentEvents),
        ]
        var passed = 0
        for (title, step) in steps {
            reporter.heading(title)
            do {
                reporter.passed(try await step())
                passed += 1
            } catch let error as SatchelError {
                reporter.failed(error.description)
            } catch {
                reporter.failed("\(error)")
            }
        }
        return passed
    }

    /// A session for the plain server, without retries (a demo should fail fast).
    func session(_ base: String? = nil, policy: SecurityPolicy = .default) throws -> Session {
        var configuration = SessionConfiguration()
        configuration.retryPolicy = .disabled
        configuration.securityPolicy = policy
        configuration.timeouts = TransferTimeouts(connect: .seconds(5), request: .seconds(60), idle: .seconds(10))
        return try Session(baseURL: base ?? server.baseURL, configuration: configuration)
    }

    /// Fails the step with `message` unless `condition` holds.
    func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw DemoFailure(message()) }
    }

    /// The status line of a response, such as `200 OK application/json`.
    func statusLine(_ response: DataResponse) -> String {
        let head = response.response
        let type = head.headerFields[.contentType].map { " \($0)" } ?? ""
        return "\(head.status.code) \(head.status.reasonPhrase)\(type) (\(response.body.count) bytes)"
    }

    /// The `body` member of an echo.
    func echoedBody(_ response: DataResponse) throws -> Value {
        guard let body = response.value?["body"] else { throw DemoFailure("the echo has no body member") }
        return body
    }
}

/// A demo step whose result was not what it should have been.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
