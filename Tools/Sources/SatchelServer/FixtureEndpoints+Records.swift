// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FixtureEndpoints {
    /// The record formats `/sse`, `/ndjson` and `/json-seq` send: Content-Type and record I.
    static let recordFormats: [String: (contentType: String, record: @Sendable (Int) -> String)] = [
        "sse": ("text/event-stream", { "id: \($0)\ndata: {\"i\":\($0)}\n\n" }),
        "ndjson": ("application/x-ndjson", { "{\"i\":\($0)}\n" }),
        "json-seq": ("application/json-seq", { "\u{1E}{\"i\":\($0)}\n" }),
    ]

    /// `/sse`, `/ndjson`, `/json-seq` `?count=N&interval_ms=M`: N records (`{"i":I}`; default
    /// 5, at most 10 000), each in its own chunk, M milliseconds apart (default 500, at most the
    /// delay cap), so a client can be seen printing each as it arrives. `/sse` starts after the
    /// request's `Last-Event-ID` and asks for reconnections after M ms (`retry`); once every
    /// event has been sent, a reconnection gets 204 (the standard's "stop").
    func records(_ format: String, request: FixtureRequest) -> FixtureResponse {
        guard let (contentType, record) = Self.recordFormats[format] else {
            return .problem(status: 404, detail: "no record format \(format)")
        }
        let query = Self.queryItems(request.query)
        guard let count = Self.number(query["count"] ?? "5", maximum: 10_000),
            let interval = Self.number(
                query["interval_ms"] ?? "500", maximum: Int64(configuration.maxDelaySeconds) * 1000)
        else {
            return .problem(
                status: 400,
                detail:
                    "/\(format) takes count (0 to 10000) and interval_ms (0 to \(configuration.maxDelaySeconds * 1000))"
            )
        }
        var first: Int64 = 0
        if format == "sse", let lastEventID = request.header("Last-Event-ID") {
            guard let last = Self.number(lastEventID, maximum: Int64.max - 1) else {
                return .problem(
                    status: 400, detail: "Last-Event-ID \"\(lastEventID)\" is not an event this server sent")
            }
            first = last + 1
            if first >= count { return FixtureResponse(status: 204) }
        }
        var pieces = (first..<count).map { Array(record(Int($0)).utf8) }
        if format == "sse" {  // the reconnection time goes with the first event
            let retry = Array("retry: \(interval)\n".utf8)
            if pieces.isEmpty { pieces = [retry] } else { pieces[0] = retry + pieces[0] }
        }
        var response = FixtureResponse(status: 200, contentType: contentType)
        response.body = .paced(pieces, interval: .milliseconds(interval))
        response.isChunked = true
        return response
    }

    /// `name=value` pairs of a query (no percent-decoding: the record endpoints take numbers).
    static func queryItems(_ query: String?) -> [String: String] {
        var items: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            items[String(parts[0])] = parts.count == 2 ? String(parts[1]) : ""
        }
        return items
    }
}
