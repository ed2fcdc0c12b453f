// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Transport

// Client certificates (include/satchel.h, "Client certificates").

@c @implementation
public func satchel_session_set_client_certificate(
    _ session: OpaquePointer?, _ host: UnsafePointer<CChar>?, _ hostLength: Int,
    _ certificatePath: UnsafePointer<CChar>?, _ keyPath: UnsafePointer<CChar>?, _ passphrase: UnsafePointer<CChar>?,
    _ type: satchel_cert_type
) -> satchel_status {
    guarded {
        let identity = try certificatePath.map { _ throws(SatchelError) in
            ClientIdentity(
                certificate: .file(try Arguments.path(certificatePath, "certificate_path")),
                privateKey: try keyPath.map { _ throws(SatchelError) in .file(try Arguments.path(keyPath, "key_path"))
                },
                passphrase: passphrase.map { String(cString: $0) }, format: try ClientIdentity.Format(type))
        }
        try setClientIdentity(identity, session, host, hostLength)
    }
}

@c @implementation
public func satchel_session_set_client_certificate_blob(
    _ session: OpaquePointer?, _ host: UnsafePointer<CChar>?, _ hostLength: Int, _ certificate: UnsafeRawPointer?,
    _ certificateLength: Int, _ key: UnsafeRawPointer?, _ keyLength: Int, _ passphrase: UnsafePointer<CChar>?,
    _ type: satchel_cert_type
) -> satchel_status {
    guarded {
        let identity = try certificate.map { _ throws(SatchelError) in
            ClientIdentity(
                certificate: .bytes(Array(try Arguments.bytes(certificate, certificateLength, "certificate"))),
                privateKey: try key.map { _ throws(SatchelError) in
                    .bytes(Array(try Arguments.bytes(key, keyLength, "key")))
                },
                passphrase: passphrase.map { String(cString: $0) }, format: try ClientIdentity.Format(type))
        }
        try setClientIdentity(identity, session, host, hostLength)
    }
}

/// Stores `identity` for `host`, or as the session's default when `host` is NULL.
private func setClientIdentity(
    _ identity: ClientIdentity?, _ session: OpaquePointer?, _ host: UnsafePointer<CChar>?, _ hostLength: Int
) throws {
    let host = try Arguments.optionalString(host, hostLength, "host")?.lowercased()
    if host?.isEmpty == true { throw SatchelError(.invalidArgument, "host: empty") }
    try SessionHandle.from(session).configure { configuration in
        if let host {
            configuration.clientIdentities[host] = identity
        } else {
            configuration.clientIdentity = identity
        }
    }
}

extension ClientIdentity.Format {
    /// The format C named.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for another value.
    init(_ type: satchel_cert_type) throws(SatchelError) {
        switch type {
        case SATCHEL_CERT_PEM: self = .pem
        case SATCHEL_CERT_DER: self = .der
        case SATCHEL_CERT_P12: self = .pkcs12
        default: throw SatchelError(.invalidArgument, "type: \(type.rawValue) is not a satchel_cert_type")
        }
    }
}
