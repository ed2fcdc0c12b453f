// SPDX-License-Identifier: Apache-2.0
import NIOHTTP1
import Satchel

extension FixtureResponse {
    /// An `application/problem+json` answer (RFC 9457) written by the JSON serializer:
    /// `{"type": "about:blank", "title": <reason phrase>, "status": N, "detail": …}`, which
    /// `ProblemDetailsResponseSerializer` reads back.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - detail: What was wrong, for a person.
    ///   - headers: More header fields.
    static func problem(status: Int, detail: String, headers: [MultipartPart.Header] = []) -> FixtureResponse {
        let problem: Value = [
            "type": "about:blank",
            "title": .string(title(for: status)),
            "status": .integer(Int64(status)),
            "detail": .string(detail),
        ]
        // A document of strings and an integer always encodes; "{}" keeps the answer valid JSON if not.
        let body = (try? JSONRequestSerializer().encodeBody(problem)) ?? Array("{}".utf8)
        return FixtureResponse(status: status, contentType: "application/problem+json", headers: headers, body: body)
    }

    /// The status's reason phrase (SwiftNIO's table), such as `Not Found`.
    static func title(for status: Int) -> String {
        HTTPResponseStatus(statusCode: status).reasonPhrase
    }

    /// The problem answer for an error met while reading a request body: 413 for a limit, 400
    /// otherwise, the error's description as the detail.
    static func problem(for error: any Error, reading what: String) -> FixtureResponse {
        let satchelError = error as? SatchelError
        let status = satchelError?.code == .limitExceeded ? 413 : 400
        return problem(status: status, detail: "\(what): \(satchelError.map(\.description) ?? "\(error)")")
    }
}
