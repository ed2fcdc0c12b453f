// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FixtureEndpoints {
    /// `/echo`, `/anything`, `/get`: the request as JSON, `{method, path, query, headers, body}`.
    ///
    /// `query` is the query string decoded by the form serializer (`a[b]=1` nests), `headers`
    /// the fields as `[name, value]` pairs in order, `body` the body decoded through the
    /// registry by its Content-Type (sniffed when missing or `application/octet-stream`) in
    /// canonical JSON form — `{"$multipart": […]}` with each part's name, filename,
    /// contentType, size and value, `{"$xml": …}`, plist dates as `{"$date": …}` — `null`
    /// for an empty body, and `{"$data": base64}` when no serializer takes the type.
    /// An undecodable body or query is a 400 (413 for a limit).
    func echo(_ request: FixtureRequest) -> FixtureResponse {
        let query: Value
        do {
            query = try decodeQuery(request.query)
        } catch {
            return .problem(for: error, reading: "the query string")
        }
        let body: Value
        do {
            body = try decodeBody(request)
        } catch {
            return .problem(for: error, reading: "the request body")
        }
        let echo: Value = [
            "method": .string(request.method),
            "path": .string(request.path),
            "query": query,
            "headers": .array(request.headers.map { [.string($0.name), .string($0.value)] }),
            "body": body.canonicalForm,
        ]
        return encoded(echo, as: JSONRequestSerializer(writingOptions: Self.prettyJSON))
    }

    /// The query decoded as a form, `{}` for none.
    private func decodeQuery(_ query: String?) throws -> Value {
        guard let query, !query.isEmpty else { return [:] }
        return try registry.decode(Array(query.utf8), contentType: .formURLEncoded) ?? [:]
    }

    /// The body decoded through the registry; see ``echo(_:)``.
    private func decodeBody(_ request: FixtureRequest) throws -> Value {
        switch request.body {
        case .decoded(let value):
            return value
        case .bytes(let bytes):
            guard !bytes.isEmpty else { return .null }
            let contentType = try request.header("Content-Type").map { try MediaType(parsing: $0) } ?? .octetStream
            do {
                return try registry.decode(bytes, contentType: contentType) ?? .null
            } catch {
                guard error.code == .unacceptableContentType else { throw error }
                return .bytes(bytes)
            }
        }
    }
}
