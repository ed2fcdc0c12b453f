// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Transport

// The session's proxy (include/satchel.h, "Proxies").

/// The proxy settings C gives one at a time, in any order; ``policy`` is what they make.
struct ProxySettings {
    /// `nil`: the environment's; empty: none.
    var url: String?
    var credential: Credential?
    var bypass: [String] = []
    var certificateAuthoritiesPath: String?

    /// The policy the settings make.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a proxy URL Satchel refuses.
    func policy() throws(SatchelError) -> ProxyPolicy {
        guard let url else { return .environment }
        if url.isEmpty { return .direct }
        return .through(
            try Proxy(
                url, credential: credential, bypass: bypass, certificateAuthoritiesPath: certificateAuthoritiesPath))
    }
}

@c @implementation
public func satchel_session_set_proxy(
    _ session: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ urlLength: Int
) -> satchel_status {
    guarded {
        let url = try Arguments.optionalString(url, urlLength, "url")
        try SessionHandle.from(session).configureProxy { $0.url = url }
    }
}

@c @implementation
public func satchel_session_set_proxy_credential(
    _ session: OpaquePointer?, _ user: UnsafePointer<CChar>?, _ userLength: Int, _ password: UnsafePointer<CChar>?,
    _ passwordLength: Int, _ method: satchel_auth
) -> satchel_status {
    guarded {
        let credential = try Credential(user, userLength, password, passwordLength, method)
        try SessionHandle.from(session).configureProxy { $0.credential = credential }
    }
}

@c @implementation
public func satchel_session_set_noproxy(
    _ session: OpaquePointer?, _ hosts: UnsafePointer<CChar>?, _ hostsLength: Int
) -> satchel_status {
    guarded {
        let list = try Arguments.optionalString(hosts, hostsLength, "hosts") ?? ""
        let bypass = list.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
        try SessionHandle.from(session).configureProxy { $0.bypass = bypass }
    }
}

@c @implementation
public func satchel_session_set_proxy_ca_file(
    _ session: OpaquePointer?, _ path: UnsafePointer<CChar>?
) -> satchel_status {
    guarded {
        let path = try path.map { _ throws(SatchelError) in try Arguments.path(path, "path") }
        try SessionHandle.from(session).configureProxy { $0.certificateAuthoritiesPath = path }
    }
}
