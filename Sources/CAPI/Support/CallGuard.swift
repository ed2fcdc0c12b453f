// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

/// Runs the body of a C entry point so that nothing Swift reaches the C caller: a thrown error
/// becomes its `satchel_status` and this thread's last error message.
///
/// - Parameter body: The work; throws ``SatchelError`` (any other error is reported as
///   `internal`).
/// - Returns: `SATCHEL_OK`, or the error's status.
func guarded(_ body: () throws -> Void) -> satchel_status {
    do {
        try body()
        return SATCHEL_OK
    } catch let error as SatchelError {
        return LastError.record(error)
    } catch {
        return LastError.record(SatchelError(.internal, "\(error)"))
    }
}

extension satchel_status {
    /// The status with the number of a ``SatchelError/Code``.
    init(_ code: SatchelError.Code) {
        self.init(rawValue: UInt32(clamping: code.rawValue))
    }

    /// The status's name in the header, such as `SATCHEL_E_SYNTAX`.
    var name: String {
        switch self {
        case SATCHEL_OK: "SATCHEL_OK"
        case SATCHEL_E_INVALID_ARGUMENT: "SATCHEL_E_INVALID_ARGUMENT"
        case SATCHEL_E_SYNTAX: "SATCHEL_E_SYNTAX"
        case SATCHEL_E_TRUNCATED: "SATCHEL_E_TRUNCATED"
        case SATCHEL_E_LIMIT: "SATCHEL_E_LIMIT"
        case SATCHEL_E_ENCODING: "SATCHEL_E_ENCODING"
        case SATCHEL_E_NUMBER_RANGE: "SATCHEL_E_NUMBER_RANGE"
        case SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE: "SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE"
        case SATCHEL_E_UNACCEPTABLE_STATUS: "SATCHEL_E_UNACCEPTABLE_STATUS"
        case SATCHEL_E_TYPE_MISMATCH: "SATCHEL_E_TYPE_MISMATCH"
        case SATCHEL_E_NOT_FOUND: "SATCHEL_E_NOT_FOUND"
        case SATCHEL_E_UNENCODABLE: "SATCHEL_E_UNENCODABLE"
        case SATCHEL_E_INVALID_MEDIA_TYPE: "SATCHEL_E_INVALID_MEDIA_TYPE"
        case SATCHEL_E_IO: "SATCHEL_E_IO"
        case SATCHEL_E_INTERNAL: "SATCHEL_E_INTERNAL"
        case SATCHEL_E_UNSUPPORTED_FORMAT: "SATCHEL_E_UNSUPPORTED_FORMAT"
        case SATCHEL_E_CANCELLED: "SATCHEL_E_CANCELLED"
        case SATCHEL_E_TIMED_OUT: "SATCHEL_E_TIMED_OUT"
        case SATCHEL_E_CANNOT_CONNECT: "SATCHEL_E_CANNOT_CONNECT"
        case SATCHEL_E_TLS: "SATCHEL_E_TLS"
        case SATCHEL_E_TOO_MANY_REDIRECTS: "SATCHEL_E_TOO_MANY_REDIRECTS"
        case SATCHEL_E_NETWORK: "SATCHEL_E_NETWORK"
        case SATCHEL_E_NO_MEMORY: "SATCHEL_E_NO_MEMORY"
        case SATCHEL_E_MISUSE: "SATCHEL_E_MISUSE"
        case SATCHEL_E_ABI_MISMATCH: "SATCHEL_E_ABI_MISMATCH"
        case SATCHEL_E_PLUGIN: "SATCHEL_E_PLUGIN"
        default: "satchel_status \(rawValue)"
        }
    }
}

extension SatchelError {
    /// The description a C caller reads: led by the header's name of its status
    /// (`SATCHEL_E_SYNTAX: …`) instead of the Swift code's name (`syntaxError: …`).
    var cDescription: String {
        let text = description
        let swiftName = code.name
        guard text.hasPrefix(swiftName) else { return text }
        return satchel_status(code).name + text.dropFirst(swiftName.count)
    }
}
