// SPDX-License-Identifier: Apache-2.0
import Satchel

/// A request as the fixture endpoints see it, whether it came over the wire or inside a batch.
struct FixtureRequest: Sendable {
    /// The request body: bytes still to decode, or a value the registry already decoded (the
    /// body of an `application/http` part of a batch).
    enum Body: Sendable {
        /// Raw bytes, decoded on demand by the Content-Type header.
        case bytes([UInt8])
        /// A decoded value (`.null` for an empty body).
        case decoded(Value)
    }

    /// The method, such as `GET`.
    var method: String
    /// The path without the query, percent-encoded as sent (`/status/404`).
    var path: String
    /// The query without `?`, or `nil` for none.
    var query: String?
    /// The header fields in order, names with the case they arrived with.
    var headers: [MultipartPart.Header]
    /// The body.
    var body: Body

    /// Splits a request target (`/echo?a=1`) into path and query.
    init(method: String, target: String, headers: [MultipartPart.Header], body: Body) {
        self.method = method
        if let question = target.firstIndex(of: "?") {
            path = String(target[..<question])
            query = String(target[target.index(after: question)...])
        } else {
            path = target
            query = nil
        }
        self.headers = headers
        self.body = body
    }

    /// The value of the first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The path's segments after the leading slash (`/bytes/10` → `["bytes", "10"]`).
    var pathSegments: [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
