// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Transport

// The session's cookie store (include/satchel.h, "Cookies").

@c @implementation
public func satchel_session_set_cookie_jar(_ session: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> satchel_status {
    guarded {
        let handle = try SessionHandle.from(session)
        if path == nil {
            // Back to memory only, with the cookies the store holds now.
            let kept = handle.cookieStore().cookies()
            let store = CookieStore()
            try store.setCookies(kept)
            try handle.configure { $0.cookieStore = store }
        } else {
            let store = CookieStore(.file(try Arguments.path(path, "path")))
            try handle.configure { $0.cookieStore = store }
        }
    }
}

@c @implementation
public func satchel_session_cookies(
    _ outCookies: UnsafeMutablePointer<OpaquePointer?>?, _ session: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ urlLength: Int
) -> satchel_status {
    outCookies?.pointee = nil
    return guarded {
        let out = try Arguments.required(outCookies, "out_cookies")
        let store = try SessionHandle.from(session).cookieStore()
        let url = try Arguments.optionalString(url, urlLength, "url")
        let cookies = try url.map { url throws(SatchelError) in try store.cookies(for: url) } ?? store.cookies()
        out.pointee = ValueHandle.retained(.array(cookies.map(\.object)))
    }
}

@c @implementation
public func satchel_session_set_cookie(_ session: OpaquePointer?, _ cookie: OpaquePointer?) -> satchel_status {
    guarded {
        let store = try SessionHandle.from(session).cookieStore()
        try store.setCookie(Cookie(object: try ValueHandle.from(cookie, "cookie").value))
    }
}

@c @implementation
public func satchel_session_clear_cookies(
    _ session: OpaquePointer?, _ domain: UnsafePointer<CChar>?, _ domainLength: Int
) -> satchel_status {
    guarded {
        let store = try SessionHandle.from(session).cookieStore()
        if let domain = try Arguments.optionalString(domain, domainLength, "domain")?.lowercased() {
            try store.removeCookies { $0.domain.lowercased() == domain }
        } else {
            try store.removeAllCookies()
        }
    }
}

extension Cookie {
    /// The cookie as the C API hands it out: an object with `name`, `value`, `domain`, `path`,
    /// `subdomains`, `secure`, `http_only`, and `expires` unless it is a session cookie,
    /// `same_site` when it had one.
    var object: Value {
        var object: ValueObject = [
            "name": .string(name), "value": .string(value), "domain": .string(domain), "path": .string(path),
            "subdomains": .bool(includesSubdomains), "secure": .bool(isSecure), "http_only": .bool(isHTTPOnly),
        ]
        if let expires { object["expires"] = .integer(expires) }
        if let sameSite { object["same_site"] = .string(sameSite.rawValue) }
        return .object(object)
    }

    /// A cookie from such an object: `name`, `value` and `domain` required, the rest optional.
    /// - Throws: ``SatchelError/Code/invalidArgument`` naming the member that is missing or of
    ///   the wrong type.
    init(object: Value) throws(SatchelError) {
        func string(_ key: String, default fallback: String? = nil) throws(SatchelError) -> String {
            guard let member = object[key] else {
                guard let fallback else { throw SatchelError(.invalidArgument, "cookie: no \"\(key)\" string") }
                return fallback
            }
            guard let text = member.stringValue else {
                throw SatchelError(.invalidArgument, "cookie: \"\(key)\" is not a string")
            }
            return text
        }
        func flag(_ key: String) throws(SatchelError) -> Bool {
            guard let member = object[key] else { return false }
            guard let flag = member.boolValue else {
                throw SatchelError(.invalidArgument, "cookie: \"\(key)\" is not a boolean")
            }
            return flag
        }
        guard case .object = object else { throw SatchelError(.invalidArgument, "cookie: not an object") }
        var expires: Int64?
        if let member = object["expires"], !member.isNull {
            guard let seconds = member.int64Value else {
                throw SatchelError(.invalidArgument, "cookie: \"expires\" is not an integer (seconds since 1970)")
            }
            expires = seconds
        }
        var sameSite: SameSite?
        if let member = object["same_site"], !member.isNull {
            guard let text = member.stringValue, let parsed = SameSite(attribute: text) else {
                throw SatchelError(.invalidArgument, "cookie: \"same_site\" is not \"Strict\", \"Lax\" or \"None\"")
            }
            sameSite = parsed
        }
        self.init(
            name: try string("name"), value: try string("value"), domain: try string("domain"),
            includesSubdomains: try flag("subdomains"), path: try string("path", default: "/"),
            isSecure: try flag("secure"), isHTTPOnly: try flag("http_only"), expires: expires, sameSite: sameSite)
    }
}
