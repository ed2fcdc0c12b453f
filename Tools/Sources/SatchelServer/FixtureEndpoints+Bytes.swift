// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FixtureEndpoints {
    /// `/bytes/N`: N bytes of ``DeterministicBytes``, generated while sent, with
    /// `ETag: "bytes-N"` and `Accept-Ranges: bytes`.
    ///
    /// A single `Range` gives 206 with `Content-Range` (unless an `If-Range` names another
    /// entity tag, which gives the whole body), a range past the end 416 with
    /// `Content-Range: bytes */N`; several ranges or a malformed header are ignored (200).
    /// `?chunked=1` leaves out Content-Length. N above the cap is a 400; inside a batch the body
    /// must also fit `Limits.maxBodyBytes` (413). A request header `X-Satchel-Cut-After: K`
    /// makes the server drop the connection after K bytes of the body (a download to resume;
    /// a header, so that the URL, and with it the resume record, stays the same).
    func bytes(_ argument: String, request: FixtureRequest, insideBatch: Bool) -> FixtureResponse {
        guard let count = Self.number(argument, maximum: configuration.maxStreamBytes) else {
            return .problem(
                status: 400, detail: "/bytes/N needs N from 0 to \(configuration.maxStreamBytes), not \"\(argument)\"")
        }
        let entityTag = "\"bytes-\(count)\""
        var headers: [MultipartPart.Header] = [
            .init(name: "Content-Type", value: "application/octet-stream"),
            .init(name: "ETag", value: entityTag),
            .init(name: "Accept-Ranges", value: "bytes"),
        ]
        var status = 200
        var range: Range<Int64> = 0..<count
        let ifRangeMatches =
            request.header("If-Range").map { $0.filter { $0 != " " && $0 != "\t" } == entityTag } ?? true
        if let header = request.header("Range"), ifRangeMatches {
            switch ByteRangeRequest(header: header, length: count) {
            case .satisfiable(let requested):
                status = 206
                range = requested
                headers.append(
                    .init(
                        name: "Content-Range",
                        value: "bytes \(requested.lowerBound)-\(requested.upperBound - 1)/\(count)"))
            case .unsatisfiable:
                return .problem(
                    status: 416, detail: "the range \(header) starts past the end of \(count) bytes",
                    headers: [.init(name: "Content-Range", value: "bytes */\(count)")])
            case .ignored:
                break
            }
        }
        if insideBatch {
            guard range.count <= configuration.limits.maxBodyBytes else {
                return .problem(
                    status: 413, detail: "a batch part's body is at most \(configuration.limits.maxBodyBytes) bytes")
            }
            return FixtureResponse(status: status, headers: headers, body: DeterministicBytes.bytes(range))
        }
        var response = FixtureResponse(status: status, headers: headers)
        response.body = .generated(range)
        response.isChunked = request.query.map(Self.asksForChunked) ?? false
        response.cutAfter = request.header("X-Satchel-Cut-After").flatMap { Int64($0) }.map { max(0, $0) }
        return response
    }

    /// Whether a query has `chunked=1` or `chunked=true`.
    private static func asksForChunked(_ query: String) -> Bool {
        query.split(separator: "&").contains { $0 == "chunked=1" || $0 == "chunked=true" }
    }
}
