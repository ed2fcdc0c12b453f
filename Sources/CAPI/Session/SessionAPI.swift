// SPDX-License-Identifier: Apache-2.0
import CSatchel
import HTTPTypes
import SerializerRegistry
import Serializers
import Synchronization
import Transport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Sessions and their settings (include/satchel.h, "Transport"). The other satchel_session_
// functions, by aspect: SessionAPI+Send (sending), +Connection, +Cookies, +Proxy,
// +ClientCertificates.

@c @implementation
public func satchel_session_create(
    _ outSession: UnsafeMutablePointer<OpaquePointer?>?, _ baseURL: UnsafePointer<CChar>?, _ baseURLLength: Int,
    _ registry: OpaquePointer?
) -> satchel_status {
    outSession?.pointee = nil
    return guarded {
        let out = try Arguments.required(outSession, "out_session")
        let base = try Arguments.optionalString(baseURL, baseURLLength, "base_url")
        let chosen =
            try registry.map { pointer throws(SatchelError) in try RegistryHandle.from(pointer).registry }
            ?? .standard()
        let handle = try SessionHandle(baseURL: base, registry: chosen)
        out.pointee = handle.retainedPointer
    }
}

@c @implementation
public func satchel_session_free(_ session: OpaquePointer?) {
    guard let handle = try? SessionHandle.from(session) else { return }
    handle.close()
    SessionHandle.release(session)
}

/// Runs a setter on a session's configuration.
private func configure(
    _ session: OpaquePointer?, _ change: (inout SessionConfiguration) throws -> Void
) -> satchel_status {
    guarded { try SessionHandle.from(session).configure(change) }
}

@c @implementation
public func satchel_session_set_timeout(
    _ session: OpaquePointer?, _ timeout: satchel_timeout, _ milliseconds: UInt64
) -> satchel_status {
    configure(session) { configuration in
        guard milliseconds <= UInt64(Int64.max) else {
            throw SatchelError(.invalidArgument, "milliseconds: \(milliseconds) is too large")
        }
        let duration: Duration? = milliseconds == 0 ? nil : .milliseconds(Int64(milliseconds))
        switch timeout {
        case SATCHEL_TIMEOUT_CONNECT: configuration.timeouts.connect = duration
        case SATCHEL_TIMEOUT_REQUEST: configuration.timeouts.request = duration
        case SATCHEL_TIMEOUT_IDLE: configuration.timeouts.idle = duration
        default: throw SatchelError(.invalidArgument, "timeout: \(timeout.rawValue) is not a satchel_timeout")
        }
    }
}

@c @implementation
public func satchel_session_set_header(
    _ session: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int, _ value: UnsafePointer<CChar>?,
    _ valueLength: Int
) -> satchel_status {
    configure(session) { configuration in
        let field = try HTTPField.Name.parse(Arguments.string(name, nameLength, "name"))
        let value = try Arguments.string(value, valueLength, "value")
        configuration.defaultHeaders[field] = value.isEmpty ? nil : try HTTPField.checkedValue(value)
    }
}

@c @implementation
public func satchel_session_set_credential(
    _ session: OpaquePointer?, _ host: UnsafePointer<CChar>?, _ hostLength: Int, _ user: UnsafePointer<CChar>?,
    _ userLength: Int, _ password: UnsafePointer<CChar>?, _ passwordLength: Int, _ method: satchel_auth
) -> satchel_status {
    configure(session) { configuration in
        let host = try Arguments.string(host, hostLength, "host")
        guard !host.isEmpty else { throw SatchelError(.invalidArgument, "host: empty") }
        configuration.credentials[host.lowercased()] = try Credential(
            user, userLength, password, passwordLength, method)
    }
}

@c @implementation
public func satchel_session_set_max_redirects(_ session: OpaquePointer?, _ count: UInt32) -> satchel_status {
    configure(session) { configuration in
        configuration.redirectPolicy = count == 0 ? .none : .follow(maximumRedirects: Int(count))
    }
}

@c @implementation
public func satchel_session_set_retries(_ session: OpaquePointer?, _ count: UInt32) -> satchel_status {
    configure(session) { $0.retryPolicy.retryLimit = Int(count) }
}

@c @implementation
public func satchel_session_set_ca_file(_ session: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> satchel_status {
    configure(session) { configuration in
        configuration.securityPolicy.certificateAuthoritiesPath = try path.map { _ throws(SatchelError) in
            try Arguments.path(path, "path")
        }
    }
}

@c @implementation
public func satchel_session_add_pinned_public_key(
    _ session: OpaquePointer?, _ pin: UnsafePointer<CChar>?, _ pinLength: Int
) -> satchel_status {
    configure(session) { configuration in
        var text = try Arguments.string(pin, pinLength, "pin")
        if text.hasPrefix("sha256//") { text.removeFirst("sha256//".count) }
        guard let digest = Data(base64Encoded: text), digest.count == 32 else {
            throw SatchelError(.invalidArgument, "pin: \"\(text)\" is not the base64 of a SHA-256 digest")
        }
        configuration.securityPolicy.pinningMode = .publicKey
        configuration.securityPolicy.pinnedPublicKeyHashes.append(text)
    }
}

@c @implementation
public func satchel_session_set_allow_invalid_certificates(_ session: OpaquePointer?, _ allow: Int32) -> satchel_status
{
    configure(session) { $0.securityPolicy.allowInvalidCertificates = allow != 0 }
}

@c @implementation
public func satchel_session_set_validates_domain_name(_ session: OpaquePointer?, _ validates: Int32) -> satchel_status {
    configure(session) { $0.securityPolicy.validatesDomainName = validates != 0 }
}

extension HTTPField.Name {
    /// A header name, or `SATCHEL_E_INVALID_ARGUMENT` when it is not a token.
    static func parse(_ name: String) throws(SatchelError) -> HTTPField.Name {
        guard let field = HTTPField.Name(name) else {
            throw SatchelError(.invalidArgument, "\"\(name)\" is not a valid header name")
        }
        return field
    }
}

extension HTTPField {
    /// A header value, or `SATCHEL_E_INVALID_ARGUMENT` when it holds CR, LF or NUL (header
    /// injection).
    static func checkedValue(_ value: String) throws(SatchelError) -> String {
        guard HTTPField.isValidValue(value) else {
            throw SatchelError(
                .invalidArgument, "the header value \(Value.string(value).canonicalJSON()) holds CR, LF or NUL")
        }
        return value
    }
}

@c @implementation
public func satchel_session_set_event_callback(
    _ session: OpaquePointer?, _ onEvent: satchel_event_callback?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    configure(session) { configuration in
        configuration.eventMonitors.removeAll { $0 is EventCallbackMonitor }
        if let onEvent {
            configuration.eventMonitors.append(EventCallbackMonitor(function: onEvent, userdata: userdata))
        }
    }
}

@c @implementation
public func satchel_session_set_bearer_token(
    _ session: OpaquePointer?, _ token: UnsafePointer<CChar>?, _ tokenLength: Int
) -> satchel_status {
    guarded {
        let handle = try SessionHandle.from(session)
        let token = try Arguments.optionalString(token, tokenLength, "token")
        let credential = try token.map { token throws(SatchelError) in try BearerToken(checked: token) }
        try handle.bearerAuthentication { interceptor, _ in
            interceptor.credential = credential ?? BearerToken(token: "")
        }
    }
}

@c @implementation
public func satchel_session_set_token_refresh(
    _ session: OpaquePointer?, _ refresh: satchel_token_refresh_callback?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    guarded {
        try SessionHandle.from(session).bearerAuthentication { _, authenticator in
            authenticator.setCallback(refresh.map { .init(function: $0, userdata: userdata) })
        }
    }
}

@c @implementation
public func satchel_session_set_http_version(
    _ session: OpaquePointer?, _ version: satchel_http_version
) -> satchel_status {
    configure(session) { configuration in
        switch version {
        case SATCHEL_HTTP_1_1: configuration.httpVersion = .http1_1
        case SATCHEL_HTTP_2_WHEN_OFFERED: configuration.httpVersion = .http2WhenOffered
        case SATCHEL_HTTP_2_PRIOR_KNOWLEDGE: configuration.httpVersion = .http2PriorKnowledge
        default:
            throw SatchelError(.invalidArgument, "version: \(version.rawValue) is not a satchel_http_version")
        }
    }
}

@c @implementation
public func satchel_session_set_unix_socket(_ session: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> satchel_status
{
    configure(session) { configuration in
        configuration.unixSocketPath = try path.map { _ throws(SatchelError) in try Arguments.path(path, "path") }
    }
}

@c @implementation
public func satchel_session_set_cache(_ session: OpaquePointer?, _ cache: OpaquePointer?) -> satchel_status {
    guarded {
        let handle = try cache.map { _ throws(SatchelError) in try CacheHandle.from(cache) }
        try SessionHandle.from(session).configure { $0.cache = handle?.cache }
    }
}
