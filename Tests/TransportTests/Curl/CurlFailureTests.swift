// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import SerializerRegistry
import Testing

@testable import Transport

/// libcurl's result codes become Satchel's stable codes, with libcurl's own words kept.
@Suite struct CurlFailureTests {
    @Test(arguments: [
        (CURLE_OPERATION_TIMEDOUT, SatchelError.Code.timedOut),
        (CURLE_COULDNT_RESOLVE_PROXY, .cannotConnect),
        (CURLE_SSL_CRL_BADFILE, .tlsFailure),
        (CURLE_TOO_MANY_REDIRECTS, .tooManyRedirects),
        (CURLE_UNSUPPORTED_PROTOCOL, .invalidArgument),
        (CURLE_OUT_OF_MEMORY, .internal),
        (CURLE_BAD_FUNCTION_ARGUMENT, .internal),
        (CURLE_RECV_ERROR, .networkFailure),
        (CURLE_PARTIAL_FILE, .networkFailure),
    ])
    func eachCodeHasItsSatchelCode(code: CURLcode, expected: SatchelError.Code) {
        let error = SatchelError.transfer(code, detail: "", url: "http://example.test/x")
        #expect(error.code == expected)
        // Without a detail from libcurl's buffer, the message is libcurl's text for the code.
        #expect(error.message == "http://example.test/x: \(String(cString: curl_easy_strerror(code)))")
        #expect((error.underlying as? CurlFailure)?.code == Int(code.rawValue))
        // The description says libcurl's words once, then the code.
        let words = String(cString: curl_easy_strerror(code))
        #expect(error.description.components(separatedBy: words).count == 2, "\(error)")
        #expect(error.description.hasSuffix(": libcurl error \(code.rawValue)"), "\(error)")
    }

    /// A TLS alert that arrives on a read is a TLS failure; one naming a refused client
    /// certificate says what to do about it.
    @Test func aTLSAlertOnAReadIsATLSFailure() {
        let alert = "OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0"
        let refused = SatchelError.transfer(CURLE_RECV_ERROR, detail: alert, url: "https://example.test/")
        #expect(refused.code == .tlsFailure)
        #expect(refused.message.hasSuffix("(the server wants a client certificate it trusts: see clientIdentity)"))
        let sent = SatchelError.transfer(CURLE_SEND_ERROR, detail: "SSL routines:: other alert x", url: "u")
        #expect(sent.code == .tlsFailure && sent.message == "u: SSL routines:: other alert x")
        let plain = SatchelError.transfer(CURLE_RECV_ERROR, detail: "Connection reset by peer", url: "u")
        #expect(plain.code == .networkFailure && plain.message == "u: Connection reset by peer")
    }
}
