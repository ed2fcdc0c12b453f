// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl

/// libcurl's process-wide initialisation, done once before the first handle is made.
enum CurlGlobal {
    /// `curl_global_init`'s result; a `static let` runs its initialiser once, thread-safely.
    static let initialised: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// libcurl's version string, such as `"libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 nghttp2/1.52.0"`.
    static var version: String {
        _ = initialised
        return String(cString: curl_version())
    }
}
