// SPDX-License-Identifier: Apache-2.0
// What the docs' Swift blocks assume without showing it (scripts/check-doc-snippets): the
// reader's session, their models, the bytes they have at hand. A block sees these names unless it
// declares its own. Type-checked only, never run: every value is `given()`.
import CoreMetrics
import Foundation
import HTTPTypes
import Satchel
import Tracing

/// Stands for a value the reader has; never called.
public func given<T>() -> T { fatalError("a doc snippet's placeholder") }

// Models.

public struct User: Codable, Sendable {
    public var id: UInt64
    public var name: String
}

public struct NewUser: Codable, Sendable {
    public var name: String
    public var tags: [String]
    public init(name: String, tags: [String]) {
        self.name = name
        self.tags = tags
    }
}

public struct Search: Codable, Sendable {
    public var q: String
    public var page: Int
    public init(q: String, page: Int) {
        self.q = q
        self.page = page
    }
}

public struct Book: Codable, Sendable {
    public var title: String
}

public struct Settings: Codable, Sendable {
    public var theme: String
}

public struct Order: Codable, Sendable {
    public var item: String
}

public struct LogEntry: Codable, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
}

/// An OpenAI-style streamed chat delta (Sources/Satchel/Satchel.docc/RecordStreams.md).
public struct Delta: Decodable, Sendable {
    public var content: String
}

/// The OAuth credential and authenticator of Sources/Satchel/Satchel.docc/AuthenticationAndCookies.md.
public struct Token: AuthenticationCredential, Decodable {
    public var access: String
    public var refresh: String
    public var expiry: Date
    public var requiresRefresh: Bool { expiry < Date(timeIntervalSinceNow: 60) }
}

public struct OAuth: Authenticator {
    public let tokens: Session
    public init(tokens: Session) { self.tokens = tokens }
    public func apply(_ token: Token, to request: inout SessionRequest) {}
    public func refresh(_ token: Token) async throws -> Token { token }
    public func isRequest(_ request: SessionRequest, authenticatedWith token: Token) -> Bool { true }
}

/// Where the reader keeps a client certificate and its passphrase.
public struct Vault: Sendable {
    public var bundle: [UInt8]
    public var passphrase: String
}

/// Hands out the current access token.
public actor Tokens {
    public func current() async -> String { "" }
}

// Values.

public let session: Session = given()
public let mySession: Session = given()
public let tokenSession: Session = given()
public let registry: Registry = given()
public nonisolated(unsafe) var configuration = SessionConfiguration()
public let saved: Token = given()
public let storedToken: [UInt8] = given()
public let tokens = Tokens()
public let vault: Vault = given()
public let secret = ""
public let pass = ""
public let token = ""
public let etag = ""
public nonisolated(unsafe) var savedID = ""
public let order: Order = given()

/// A body, a response's bytes, a chunk of them as they arrive.
public let body: [UInt8] = given()
public let bytes: [UInt8] = given()
public let jpeg: [UInt8] = given()
public let xmlBytes: [UInt8] = given()
public let chunk: [UInt8] = given()
public let chunk1: [UInt8] = given()
public let chunk2: [UInt8] = given()
public let chunks: [[UInt8]] = given()
/// JSON text.
public let json = "{}"
/// A `multipart/mixed` batch response and its body.
public let batchResponse: HTTPResponse = given()
public let batchBody: [UInt8] = given()
/// Log entries as they are produced.
public let entries: AsyncStream<LogEntry> = given()
public func tail() -> [LogEntry] { [] }
public func makeLogStream() throws -> any BodyStream { given() }
/// What the reader does with what arrives.
public func handle<T>(_ value: T) {}
public func consume<T>(_ value: T) {}

/// A tracer and a metrics backend the reader's app bootstraps (swift-otel, a Prometheus client).
public let otelTracer: any Instrument = given()
public let prometheusFactory: any MetricsFactory = given()
