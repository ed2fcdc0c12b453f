// SPDX-License-Identifier: Apache-2.0
import Satchel

/// A fixture endpoint's answer, independent of the server framework so that batch parts can
/// carry it as an embedded HTTP message.
struct FixtureResponse: Sendable {
    /// The body: bytes in memory, or deterministic bytes generated while they are sent.
    enum Body: Sendable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// The bytes of ``DeterministicBytes`` from `range` (never all in memory at once).
        case generated(Range<Int64>)
        /// Pieces sent one at a time with `interval` between them (records, sent slowly).
        case paced([[UInt8]], interval: Duration)
    }

    /// The status code.
    var status: Int
    /// The header fields (Content-Length is added when sent).
    var headers: [MultipartPart.Header]
    /// The body.
    var body: Body
    /// Whether the body is sent without Content-Length, chunked.
    var isChunked = false
    /// How long to wait before answering (for `/delay/S`).
    var delay: Duration?
    /// For a generated body: drop the connection after this many bytes (a fault to resume from).
    var cutAfter: Int64?

    /// A response with a body in memory.
    init(status: Int = 200, contentType: String? = nil, headers: [MultipartPart.Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = (contentType.map { [MultipartPart.Header(name: "Content-Type", value: $0)] } ?? []) + headers
        self.body = .bytes(body)
    }

    /// The body's length in bytes.
    var bodyCount: Int64 {
        switch body {
        case .bytes(let bytes): Int64(bytes.count)
        case .generated(let range): Int64(range.count)
        case .paced(let pieces, _): Int64(pieces.reduce(0) { $0 + $1.count })
        }
    }

    /// The value of the first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
