// SPDX-License-Identifier: Apache-2.0
#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import Satchel

    /// A swift-openapi-runtime `ClientTransport` that sends a generated client's requests through a
    /// Satchel ``Session`` (libcurl): bodies streamed both ways, the session's policies (retries,
    /// redirects, pinning, proxies, credentials, cookies, cache, tracing) applied to every call.
    ///
    /// Every status comes back as a response, for the generated client to read as its document
    /// says; only transport failures throw (a ``SatchelError`` with its code, which the client
    /// wraps in its `ClientError`). Cancelling the calling task cancels the transfer, and so does
    /// dropping a response body before it is read to its end.
    ///
    /// ```swift
    /// import OpenAPIRuntime
    /// import SatchelOpenAPI
    ///
    /// let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: SatchelClientTransport())
    /// let greeting = try await client.getGreeting(query: .init(name: "Ann")).ok.body.json
    /// ```
    public struct SatchelClientTransport: ClientTransport {
        /// The session and limits a transport sends with.
        public struct Configuration: Sendable {
            /// The session the requests go through: its configuration's retry and redirect
            /// policies, security policy (pinning), proxies, credentials, cookies and cache apply;
            /// `nil` for ``SatchelClientTransport/defaultSession``, made on first use.
            public var session: Session?
            /// The longest a call may take, head and body (`TransferTimeouts.request`); `nil` keeps
            /// the session's timeouts. One minute by default, as async-http-client's transport.
            public var timeout: Duration?
            /// How long a request may wait for its host to become reachable before it is sent
            /// (URLSession's `waitsForConnectivity`): `nil` (the default) sends it at once.
            public var waitsForConnectivity: Duration?

            /// A configuration.
            ///
            /// - Parameters:
            ///   - session: The session to send with; `nil` for ``SatchelClientTransport/defaultSession``.
            ///   - timeout: A whole-call timeout, or `nil` for the session's timeouts.
            ///   - waitsForConnectivity: How long to wait for an unreachable host, or `nil`.
            public init(
                session: Session? = nil, timeout: Duration? = .seconds(60),
                waitsForConnectivity: Duration? = nil
            ) {
                self.session = session
                self.timeout = timeout
                self.waitsForConnectivity = waitsForConnectivity
            }
        }

        /// The session and limits requests are sent with.
        public var configuration: Configuration

        /// A transport.
        /// - Parameter configuration: The session and limits; by default the shared session.
        public init(configuration: Configuration = Configuration()) {
            self.configuration = configuration
        }

        /// A transport sending through `session`.
        public init(session: Session, timeout: Duration? = .seconds(60)) {
            self.init(configuration: Configuration(session: session, timeout: timeout))
        }

        /// The session transports use unless given one: Satchel's defaults (HTTP/2 when offered,
        /// redirects followed, compressed responses accepted and decoded), except that no status
        /// is retried — a generated client decides what a 503 means — while a transport failure
        /// of an idempotent request is retried as ``RetryPolicy/alamofire`` does.
        ///
        /// - Throws: ``SatchelError`` when the session cannot be made (its transfer thread or
        ///   libcurl's multi handle could not be set up), for every call that uses it.
        public static var defaultSession: Session {
            get throws(SatchelError) { try madeDefaultSession.get() }
        }

        /// The default session, made once; a failure to make it is kept and thrown by each call.
        private static let madeDefaultSession = Result { () throws(SatchelError) -> Session in
            var configuration = SessionConfiguration()
            configuration.retryPolicy = .alamofire
            configuration.retryPolicy.retryableStatusCodes = []
            return try Session(configuration: configuration)
        }

        /// Sends `request` to `baseURL` and returns the response head as soon as it arrives, with
        /// the body to read as it comes.
        ///
        /// - Throws: ``SatchelError`` for transport failures (and `invalidArgument` for a request
        ///   whose URL cannot be made); never for a status.
        public func send(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
        ) async throws -> (
            HTTPResponse, HTTPBody?
        ) {
            let session = try configuration.session ?? Self.defaultSession
            var outgoing = SessionRequest(
                request.method, try Self.url(of: request, baseURL: baseURL), headers: request.headerFields,
                body: try await Self.requestBody(body))
            outgoing.validation = ResponseValidation(acceptableStatusCodes: [100..<1000])
            if let timeout = configuration.timeout {
                var timeouts = session.configuration.timeouts
                timeouts.request = timeout
                outgoing.timeouts = timeouts
            }
            if let wait = configuration.waitsForConnectivity {
                try await Self.waitForConnectivity(to: outgoing.url, upTo: wait)
            }
            let stream = try await session.bytes(for: outgoing)
            var response = stream.response
            let decoded =
                session.configuration.acceptsCompressedResponses
                && !request.headerFields.contains(.acceptEncoding)
            if decoded, let encoding = response.headerFields[.contentEncoding], encoding.lowercased() != "identity" {
                // libcurl decoded the body: its fields no longer describe the bytes handed on.
                response.headerFields[.contentEncoding] = nil
                response.headerFields[.contentLength] = nil
            }
            // A response without a body ends on its own: nothing to read, nothing to cancel (a
            // dropped body otherwise cancels its transfer, which would close the connection).
            let code = response.status.code
            if request.method == .head || code == 204 || code == 304 || code < 200
                || response.headerFields[.contentLength] == "0"
            {
                return (response, request.method == .head ? nil : HTTPBody())
            }
            let length =
                response.headerFields[.contentLength].flatMap(Int64.init).map(HTTPBody.Length.known) ?? .unknown
            return (response, HTTPBody(ResponseChunks(stream), length: length, iterationBehavior: .single))
        }

        /// `request`'s path and query under `baseURL`'s path.
        static func url(of request: HTTPRequest, baseURL: URL) throws -> String {
            var base = baseURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let path = request.path ?? "/"
            guard !base.isEmpty, path.hasPrefix("/") else {
                throw SatchelError(.invalidArgument, "cannot make a URL of \(baseURL.absoluteString) and \(path)")
            }
            return base + path
        }

        /// Bytes to send: in memory when small and known (so a retry or a 307 can send them
        /// again), else streamed as the generated client produces them (chunked, sent once).
        static func requestBody(_ body: HTTPBody?) async throws -> RequestBody {
            guard let body else { return .none }
            if case let .known(length) = body.length, length <= 1 << 20 {
                return .bytes(Array(try await ArraySlice(collecting: body, upTo: Int(length))), contentType: nil)
            }
            return .chunks(BodyChunks(body.map { Array($0) }), contentType: nil)
        }

        /// Returns once `url`'s host is reachable, or throws `cannotConnect` after `limit`.
        static func waitForConnectivity(to url: String, upTo limit: Duration) async throws {
            guard let host = URL(string: url)?.host else { return }
            // A route lookup (and a name resolution, for a name) now; a monitor only when it fails.
            if (try? NetworkReachability.status(ofHost: host))?.isReachable == true { return }
            let reachability = try NetworkReachability(host: host)
            try reachability.start()
            defer { reachability.stop() }
            let reachable = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for await status in reachability.updates where status.isReachable { return true }
                    return false
                }
                group.addTask {
                    try? await Task.sleep(for: limit)
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            guard reachable else {
                throw SatchelError(.cannotConnect, "\(url): \(host) did not become reachable within \(limit)")
            }
        }
    }

    /// A response body as OpenAPIRuntime takes it; the transfer is cancelled when the body is
    /// dropped before its end.
    private struct ResponseChunks: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>

        /// Cancels the stream's transfer when the last reference goes (a no-op once it is over).
        final class Owner: Sendable {
            let stream: ResponseBodyStream
            init(_ stream: ResponseBodyStream) { self.stream = stream }
            deinit { stream.cancel() }
        }

        let owner: Owner

        init(_ stream: ResponseBodyStream) {
            owner = Owner(stream)
        }

        func makeAsyncIterator() -> Iterator {
            Iterator(owner: owner, inner: owner.stream.makeAsyncIterator())
        }

        struct Iterator: AsyncIteratorProtocol {
            let owner: Owner
            var inner: ResponseBodyStream.Iterator

            mutating func next() async throws -> ArraySlice<UInt8>? {
                try await inner.next().map { $0[...] }
            }
        }
    }
#endif
