// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Transport

extension RequestBody {
    /// `value` as a JSON body (`application/json`), written straight from the model by
    /// `JSONModelEncoder` (keys in declaration order, numbers as numbers), whatever request
    /// serializer the session has: the per-call choice of Alamofire's `encoder:`.
    ///
    /// ```swift
    /// let created = try await session.send(SessionRequest(.post, "users", body: try .json(newUser)))
    /// ```
    ///
    /// - Parameters:
    ///   - value: The model.
    ///   - encoder: Writes the JSON; its options set pretty printing, key order and dates.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for a value JSON cannot hold (a
    ///   non-finite number, a model that encodes nothing), with its key path.
    public static func json(
        _ value: some Encodable, encoder: JSONModelEncoder = JSONModelEncoder()
    ) throws(SatchelError) -> RequestBody {
        .bytes(try encoder.encode(value), contentType: .json)
    }
}

extension SessionRequest {
    /// A request whose body is `body` as JSON (``RequestBody/json(_:encoder:)``).
    ///
    /// ```swift
    /// var request = try SessionRequest(.post, "users", json: newUser)
    /// request.timeouts = TransferTimeouts(request: .seconds(5))
    /// let created = try await session.send(request).decode(User.self)
    /// ```
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `body` cannot be written as JSON.
    public init(
        _ method: HTTPRequest.Method, _ url: String, json body: some Encodable, headers: HTTPFields = [:]
    ) throws(SatchelError) {
        self.init(method, url, headers: headers, body: try .json(body))
    }
}

extension Session {
    /// POST with `body` as JSON, whatever the session's request serializer.
    ///
    /// ```swift
    /// let created = try await session.post("users", json: NewUser(name: "Ada")).decode(User.self)
    /// ```
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `body` cannot be written as JSON; see
    ///   ``Session/send(_:)``.
    public func post(
        _ url: String, json body: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.post, url, json: body, headers: headers))
    }

    /// PUT with `body` as JSON.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `body` cannot be written as JSON; see
    ///   ``Session/send(_:)``.
    public func put(
        _ url: String, json body: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.put, url, json: body, headers: headers))
    }

    /// PATCH with `body` as JSON.
    /// - Throws: ``SatchelError/Code/unencodableValue`` when `body` cannot be written as JSON; see
    ///   ``Session/send(_:)``.
    public func patch(
        _ url: String, json body: some Encodable, headers: HTTPFields = [:]
    ) async throws(SatchelError) -> DataResponse {
        try await send(SessionRequest(.patch, url, json: body, headers: headers))
    }
}
