// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Transport

extension Session {
    /// Creates a session over `Registry.standard()`, every built-in format registered, and starts
    /// its transfer thread.
    ///
    /// ```swift
    /// let session = try Session(baseURL: "https://api.example.com/v1")
    /// let user = try await session.get("users/42").decode(User.self)
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The URL relative request URLs resolve against (RFC 3986); `nil` for
    ///     absolute URLs only.
    ///   - configuration: Headers, timeouts and policies.
    ///   - limits: The limits of the standard registry.
    ///   - requestSerializer: `nil` for the form serializer (AFNetworking's default).
    ///   - responseSerializer: `nil` for the registry's dispatching serializer.
    /// - Throws: As ``Session/init(baseURL:configuration:registry:requestSerializer:responseSerializer:)``.
    public convenience init(
        baseURL: String? = nil, configuration: SessionConfiguration = SessionConfiguration(),
        limits: Limits = .default, requestSerializer: (any RequestSerializer)? = nil,
        responseSerializer: (any ResponseSerializer)? = nil
    ) throws(SatchelError) {
        try self.init(
            baseURL: baseURL, configuration: configuration, registry: .standard(limits: limits),
            requestSerializer: requestSerializer, responseSerializer: responseSerializer)
    }
}
