// SPDX-License-Identifier: Apache-2.0
/// Which HTTP versions a session speaks (curl's `--http1.1`, `--http2`,
/// `--http2-prior-knowledge`).
///
/// ```swift
/// configuration.httpVersion = .http2WhenOffered     // the default
/// configuration.httpVersion = .http1_1              // a server or proxy with HTTP/2 bugs
/// configuration.httpVersion = .http2PriorKnowledge  // h2c to a service known to speak it
/// ```
///
/// Over HTTP/2 the session's requests to one origin share one connection, each a stream of it:
/// a request that starts while the first connection is still being set up waits for it rather
/// than opening another (`CURLOPT_PIPEWAIT`), so a burst of requests makes one connection. The
/// version each response came with is in ``TransferMetrics/httpVersion``.
public enum HTTPVersionPolicy: Sendable, Hashable {
    /// HTTP/1.1 only.
    case http1_1
    /// HTTP/2 over TLS when the server offers it in the handshake (ALPN), else HTTP/1.1; plain
    /// `http` is HTTP/1.1. The default, as curl's.
    case http2WhenOffered
    /// HTTP/2 from the first byte, also over plain `http` (h2c with prior knowledge, RFC 9113
    /// §3.3): for servers known to speak it; an HTTP/1.1-only server fails the request.
    case http2PriorKnowledge

    /// libcurl's `CURLOPT_HTTP_VERSION` value.
    var curlVersion: Int {
        switch self {
        case .http1_1: 2  // CURL_HTTP_VERSION_1_1
        case .http2WhenOffered: 4  // CURL_HTTP_VERSION_2TLS
        case .http2PriorKnowledge: 5  // CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
        }
    }
}
