// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import SerializerRegistry

/// A libcurl error code with libcurl's own words for it, kept as a ``SatchelError``'s
/// underlying error.
public struct CurlFailure: Error, Sendable, CustomStringConvertible {
    /// libcurl's `CURLcode` value (see `curl/curl.h`).
    public let code: Int
    /// libcurl's generic text for the code.
    public let message: String

    /// The code alone (`libcurl error 7`): the error this is the underlying error of already
    /// says what happened in libcurl's words, so a description does not repeat them.
    public var description: String { "libcurl error \(code)" }
}

extension SatchelError {
    /// Whether libcurl's detail is OpenSSL reporting an alert the peer sent.
    static func isTLSAlert(_ detail: String) -> Bool {
        detail.contains("SSL routines::") && detail.contains(" alert ")
    }

    /// OpenSSL's words for the alerts a server sends when it refuses the client certificate, or
    /// wanted one.
    static let clientCertificateAlerts = [
        "alert certificate required", "alert unknown ca", "alert bad certificate", "alert handshake failure",
        "alert certificate unknown",
    ]

    /// The error a failed transfer reports: a stable Satchel code chosen from the libcurl code.
    ///
    /// - Parameters:
    ///   - code: libcurl's result for the transfer.
    ///   - detail: libcurl's error buffer, when it wrote one.
    ///   - url: The URL the transfer was for, named in the message.
    static func transfer(_ code: CURLcode, detail: String, url: String) -> SatchelError {
        let generic = String(cString: curl_easy_strerror(code))
        let failure = CurlFailure(code: Int(code.rawValue), message: generic)
        let satchelCode: SatchelError.Code
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            satchelCode = .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            satchelCode = .cannotConnect
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CRL_BADFILE:
            satchelCode = .tlsFailure
        case CURLE_TOO_MANY_REDIRECTS:
            satchelCode = .tooManyRedirects
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            satchelCode = .invalidArgument
        case CURLE_OUT_OF_MEMORY, CURLE_FAILED_INIT, CURLE_BAD_FUNCTION_ARGUMENT:
            satchelCode = .internal
        case CURLE_RECV_ERROR where Self.isTLSAlert(detail), CURLE_SEND_ERROR where Self.isTLSAlert(detail):
            // A TLS alert from the server: with TLS 1.3 a refused client certificate arrives
            // after the client's side of the handshake, on the first read.
            satchelCode = .tlsFailure
        default:
            satchelCode = .networkFailure
        }
        var text = detail.isEmpty ? generic : detail
        if satchelCode == .tlsFailure, Self.clientCertificateAlerts.contains(where: detail.contains) {
            text += " (the server wants a client certificate it trusts: see clientIdentity)"
        }
        var error = SatchelError(satchelCode, "\(url): \(text)")
        error.underlying = failure
        return error
    }
}
