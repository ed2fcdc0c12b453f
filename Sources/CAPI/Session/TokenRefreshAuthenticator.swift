// SPDX-License-Identifier: Apache-2.0
import CSatchel
import Dispatch
import Glibc
import HTTPTypes
import SerializerRegistry
import Synchronization
import Transport

/// A bearer token as the C API's ``AuthenticationInterceptor`` holds it; an empty token is
/// fetched by the refresh callback before the first request.
struct BearerToken: AuthenticationCredential {
    var token: String
    var requiresRefresh: Bool { token.isEmpty }
}

/// The C session's bearer authentication: `Authorization: Bearer` from the token set with
/// `satchel_session_set_bearer_token`, refreshed by the `satchel_token_refresh_callback`.
///
/// The callback runs on a thread of its own (a dispatch queue per session), never on a
/// cooperative thread, so one that blocks or hangs holds only that thread: the requests waiting
/// for it end with their cancellation or their request timeout.
final class TokenRefreshAuthenticator: Authenticator, @unchecked Sendable {
    // @unchecked: `callback` is behind a Mutex; its `userdata` is the caller's, which the header
    // makes them keep valid, and the callback callable from a library thread, until the session
    // is freed or the callback replaced.

    /// The C callback and its userdata.
    struct Callback: @unchecked Sendable {
        // Safe to send: see the type's comment.
        let function: satchel_token_refresh_callback
        let userdata: UnsafeMutableRawPointer?
    }

    private let callback = Mutex<Callback?>(nil)
    private let queue = DispatchQueue(label: "satchel.token-refresh")

    /// Whether a callback is set.
    var hasCallback: Bool { callback.withLock { $0 != nil } }

    /// Replaces the callback (`nil` removes it).
    func setCallback(_ new: Callback?) {
        callback.withLock { $0 = new }
    }

    func apply(_ credential: BearerToken, to request: inout SessionRequest) {
        request.headers[.authorization] = "Bearer \(credential.token)"
    }

    func isRequest(_ request: SessionRequest, authenticatedWith credential: BearerToken) -> Bool {
        request.headers[.authorization] == "Bearer \(credential.token)"
    }

    /// Calls the callback on the refresh queue for a new token, which it allocated with malloc
    /// and this frees.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when there is no callback, it returns
    ///   non-zero, or it returns no token, an empty one or one that is not valid in a header.
    func refresh(_ credential: BearerToken) async throws -> BearerToken {
        guard let callback = callback.withLock({ $0 }) else {
            throw SatchelError(
                .invalidArgument,
                credential.token.isEmpty
                    ? "no bearer token is set and no refresh callback"
                    : "the bearer token was refused and no refresh callback is set")
        }
        let token: String = try await withCheckedThrowingContinuation { continuation in
            queue.async {
                var out: UnsafeMutablePointer<CChar>?
                let status = callback.function(callback.userdata, &out)
                defer { free(out) }
                guard status == 0 else {
                    return continuation.resume(
                        throwing: SatchelError(
                            .invalidArgument, "the token refresh callback failed (it returned \(status))"))
                }
                guard let out else {
                    return continuation.resume(
                        throwing: SatchelError(.invalidArgument, "the token refresh callback returned 0 but no token"))
                }
                continuation.resume(
                    returning: String(decoding: UnsafeRawBufferPointer(start: out, count: strlen(out)), as: UTF8.self))
            }
        }
        return try BearerToken(checked: token)
    }
}

extension BearerToken {
    /// A token that can follow `Bearer ` in a header.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an empty token or one with a control
    ///   character or a space.
    init(checked token: String) throws(SatchelError) {
        guard !token.isEmpty, !token.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw SatchelError(
                .invalidArgument, "a bearer token must be non-empty, without spaces or control characters")
        }
        self.init(token: token)
    }
}
